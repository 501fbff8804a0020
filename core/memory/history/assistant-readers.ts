/**
 * The exports of the two big assistants, both called `conversations.json`
 * and told apart by their content. ChatGPT keeps each conversation as a tree
 * of message nodes (every edit and regeneration is a branch): only the branch
 * that leads to `current_node` is what the person saw, so it is followed from
 * there back to the root. Claude keeps a flat `chat_messages` list.
 */
import { z } from "zod";
import type { ChatExport, ExportMessage } from "./history-types.ts";

const GptNode = z.object({
  parent: z.string().nullable().optional(),
  message: z
    .object({
      author: z.object({ role: z.string() }).passthrough(),
      create_time: z.number().nullable().optional(),
      content: z.object({ content_type: z.string(), parts: z.array(z.unknown()).optional() }).passthrough(),
      metadata: z.object({ is_visually_hidden_from_conversation: z.boolean().optional() }).passthrough().nullable().optional(),
    })
    .passthrough()
    .nullable()
    .optional(),
});
const GptConversation = z
  .object({
    title: z.string().nullable().optional(),
    create_time: z.number().nullable().optional(),
    current_node: z.string().nullable().optional(),
    mapping: z.record(z.string(), GptNode),
  })
  .passthrough();

const ClaudeConversation = z
  .object({
    name: z.string().nullable().optional(),
    chat_messages: z.array(
      z
        .object({
          sender: z.string(),
          text: z.string().optional(),
          content: z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()).optional(),
          created_at: z.string(),
        })
        .passthrough(),
    ),
  })
  .passthrough();

/** Which assistant's export a parsed `conversations.json` is, if either. */
export function assistantExportKind(json: unknown): "chatgpt" | "claude" | undefined {
  if (!Array.isArray(json)) return undefined;
  const first: unknown = json[0];
  if (!first || typeof first !== "object") return undefined;
  if ("mapping" in first) return "chatgpt";
  if ("chat_messages" in first) return "claude";
  return undefined;
}

/** The nodes from the root to `current_node`, the branch the person last saw. */
function currentBranch(c: z.infer<typeof GptConversation>): z.infer<typeof GptNode>[] {
  const path: z.infer<typeof GptNode>[] = [];
  const seen = new Set<string>();
  let id = c.current_node ?? Object.keys(c.mapping).at(-1);
  for (let node = id ? c.mapping[id] : undefined; id && node && !seen.has(id); node = id ? c.mapping[id] : undefined) {
    seen.add(id);
    path.push(node);
    id = node.parent ?? undefined;
  }
  return path.reverse();
}

const gptText = (parts: unknown[] | undefined): string =>
  (parts ?? [])
    .filter((p): p is string => typeof p === "string")
    .join("\n")
    .trim();

/** Reads ChatGPT's export; a failed zod check comes back to name the field. */
export function readChatGpt(json: unknown): ChatExport | z.ZodError {
  const parsed = z.array(GptConversation).safeParse(json);
  if (!parsed.success) return parsed.error;
  const out: ChatExport = { format: "chatgpt", chats: [], owner: "You", skipped: 0 };
  for (const c of parsed.data) {
    const messages: ExportMessage[] = [];
    let last = (c.create_time ?? 0) * 1000;
    for (const node of currentBranch(c)) {
      const m = node.message;
      if (!m) continue;
      const role = m.author.role;
      const text = ["text", "multimodal_text"].includes(m.content.content_type) ? gptText(m.content.parts) : "";
      if ((role !== "user" && role !== "assistant") || !text || m.metadata?.is_visually_hidden_from_conversation) {
        out.skipped++;
        continue;
      }
      last = m.create_time ? m.create_time * 1000 : last;
      messages.push({ speaker: role === "user" ? "You" : "ChatGPT", assistant: role === "assistant", text, at: new Date(last) });
    }
    if (messages.length) out.chats.push({ title: c.title ?? "ChatGPT", messages });
  }
  return out;
}

/** Reads Claude's export; a failed zod check comes back to name the field. */
export function readClaude(json: unknown): ChatExport | z.ZodError {
  const parsed = z.array(ClaudeConversation).safeParse(json);
  if (!parsed.success) return parsed.error;
  const out: ChatExport = { format: "claude", chats: [], owner: "You", skipped: 0 };
  for (const c of parsed.data) {
    const messages: ExportMessage[] = [];
    for (const m of c.chat_messages) {
      const text = (
        m.content
          ?.filter((p) => p.type === "text")
          .map((p) => p.text ?? "")
          .join("\n") ||
        m.text ||
        ""
      ).trim();
      const at = new Date(m.created_at);
      if ((m.sender !== "human" && m.sender !== "assistant") || !text || Number.isNaN(at.getTime())) {
        out.skipped++;
        continue;
      }
      messages.push({ speaker: m.sender === "human" ? "You" : "Claude", assistant: m.sender === "assistant", text, at });
    }
    if (messages.length) out.chats.push({ title: c.name ?? "Claude", messages });
  }
  return out;
}
