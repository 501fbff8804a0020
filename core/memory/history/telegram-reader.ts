/**
 * Telegram Desktop's export ("Export chat history" or "Export Telegram data",
 * machine-readable JSON): `result.json`, either one chat or the whole account
 * with its chats in `chats.list`. Only personal chats are read; a message's
 * `text` is a string or a list of plain strings and entity objects.
 */
import { z } from "zod";
import { wallTimeIn } from "../../foundation/util/time.ts";
import type { ChatExport, ExportChat, ExportMessage } from "./history-types.ts";

const TextPart = z.union([z.string(), z.object({ text: z.string() }).passthrough()]);

const Message = z
  .object({
    type: z.string(),
    date: z.string().optional(),
    date_unixtime: z.string().regex(/^\d+$/).optional(),
    from: z.string().nullable().optional(),
    from_id: z.string().optional(),
    text: z.union([z.string(), z.array(TextPart)]).optional(),
  })
  .passthrough();

const Chat = z.object({ name: z.string().nullable().optional(), type: z.string(), id: z.number().optional(), messages: z.array(Message) }).passthrough();

const AccountExport = z
  .object({
    personal_information: z
      .object({ user_id: z.number().optional(), first_name: z.string().optional(), last_name: z.string().optional() })
      .passthrough()
      .optional(),
    chats: z.object({ list: z.array(Chat) }).passthrough(),
  })
  .passthrough();

/** The chat types that are a conversation between two people (a bot chat and groups are not). */
const PERSONAL = new Set(["personal_chat"]);

/** Whether parsed JSON looks like a Telegram Desktop export. */
export function looksLikeTelegram(json: unknown): boolean {
  if (!json || typeof json !== "object") return false;
  const o = json as Record<string, unknown>;
  return (Array.isArray(o.messages) && typeof o.type === "string") || (typeof o.chats === "object" && o.chats !== null && "list" in o.chats);
}

const textOf = (t: z.infer<typeof Message>["text"]): string =>
  typeof t === "string" ? t : (t ?? []).map((p) => (typeof p === "string" ? p : p.text)).join("");

/** The instant of a message: the export's Unix time where it has one, else its local wall clock in the person's zone. */
function instantOf(m: z.infer<typeof Message>, timeZone: string): Date | undefined {
  if (m.date_unixtime) return new Date(Number(m.date_unixtime) * 1000);
  const w = m.date && /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(m.date);
  if (!w) return undefined;
  const [, y, mo, d, h, mi, s] = w.map(Number) as [number, number, number, number, number, number, number];
  return wallTimeIn(Date.UTC(y, mo - 1, d, h, mi, s), timeZone);
}

function readChat(chat: z.infer<typeof Chat>, timeZone: string): { chat: ExportChat; skipped: number } {
  const messages: ExportMessage[] = [];
  let skipped = 0;
  for (const m of chat.messages) {
    const text = textOf(m.text).trim();
    const at = instantOf(m, timeZone);
    if (m.type !== "message" || !text || !m.from || !at) {
      skipped++;
      continue;
    }
    messages.push({ speaker: m.from.trim(), assistant: false, text, at });
  }
  return { chat: { title: chat.name ?? "Telegram", messages }, skipped };
}

/**
 * Reads a Telegram export; an issue of the zod check names the field. Chats
 * that are not personal are counted as skipped, whole.
 */
export function readTelegram(json: unknown, timeZone: string): ChatExport | z.ZodError {
  const whole = AccountExport.safeParse(json);
  const single = whole.success ? undefined : Chat.safeParse(json);
  if (!whole.success && !single?.success) return single?.error ?? whole.error;
  const chats = whole.success ? whole.data.chats.list : [single!.data!];
  const me = whole.success ? whole.data.personal_information : undefined;
  const owner = me && [me.first_name, me.last_name].filter(Boolean).join(" ").trim();
  const out: ChatExport = { format: "telegram", chats: [], owner: owner || undefined, skipped: 0 };
  for (const c of chats) {
    if (!PERSONAL.has(c.type)) {
      out.skipped += c.messages.length;
      continue;
    }
    const { chat, skipped } = readChat(c, timeZone);
    out.chats.push(chat);
    out.skipped += skipped;
  }
  return out;
}
