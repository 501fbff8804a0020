import type { ChatMessage, ChatRequest } from "../ports/chat-model.ts";
import { CHEAT_SHEET_LABELS } from "../prompts/cheat-sheet.ts";

/** Everything that goes on the cheat sheet of one turn, already selected. */
export interface CheatSheetInput {
  language: "de" | "en";
  userName: string;
  timezone: string;
  /** Persona and tool instructions, the model-independent system prompt. */
  persona: string;
  /** Local date and time, computed by the program (models reckon badly with dates). */
  now: string;
  rules: string[];
  profile: { category: string; text: string }[];
  profileMaxChars: number;
  shortTerm?: string | undefined;
  notes: { text: string; createdAt: string }[];
  thoughts: { text: string }[];
  /** Due topic with its instruction, correction hints: after the memories, before the turns. */
  extras: string[];
  recent: ChatMessage[];
  message: string;
}

/**
 * Assembles the prompt in the documented order. What matters most sits at
 * the start (persona, rules) and the end (recent turns, the message), since
 * models overlook the middle of long prompts ("lost in the middle").
 */
export function buildCheatSheet(input: CheatSheetInput): ChatRequest {
  const L = CHEAT_SHEET_LABELS[input.language];
  const sections: string[] = [input.persona.trim(), L.now(input.now, input.timezone)];
  if (input.rules.length) sections.push(`${L.rules}\n${bullets(input.rules)}`);
  const profile = renderProfile(input.profile, input.profileMaxChars);
  if (profile) sections.push(`${L.profile(input.userName)}\n${profile}`);
  if (input.shortTerm) sections.push(`${L.shortTerm}\n${input.shortTerm.trim()}`);
  if (input.notes.length) sections.push(`${L.notes(input.userName)}\n${bullets(input.notes.map((n) => n.text))}`);
  if (input.thoughts.length) sections.push(`${L.thoughts}\n${bullets(input.thoughts.map((t) => t.text))}`);
  for (const extra of input.extras) if (extra.trim()) sections.push(extra.trim());
  return { system: sections.join("\n\n"), messages: alternate([...input.recent, { role: "user", content: input.message }]) };
}

function bullets(items: string[]): string {
  return items.map((i) => `- ${i.trim()}`).join("\n");
}

/**
 * The whole profile, grouped by category, within a character budget (the
 * seed's profile grew without bound). Newest entries of a category win.
 */
export function renderProfile(entries: { category: string; text: string }[], maxChars: number): string {
  const byCategory = new Map<string, string[]>();
  for (const e of entries) byCategory.set(e.category, [...(byCategory.get(e.category) ?? []), e.text]);
  const lines: string[] = [];
  let used = 0;
  for (const [category, texts] of byCategory) {
    const kept: string[] = [];
    for (const t of [...texts].reverse()) {
      if (used + t.length + 4 > maxChars) break;
      kept.unshift(t);
      used += t.length + 4;
    }
    if (kept.length) lines.push(`${category}: ${kept.join("; ")}`);
  }
  return lines.map((l) => `- ${l}`).join("\n");
}

/**
 * Providers want user and assistant turns to alternate, starting with the
 * user. Consecutive turns of one role (a retried message, a greeting Lilo
 * sent on her own) are joined instead of dropped.
 */
export function alternate(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === m.role) last.content = `${last.content}\n\n${m.content}`;
    else out.push({ ...m });
  }
  while (out[0]?.role === "assistant") out.shift();
  return out;
}
