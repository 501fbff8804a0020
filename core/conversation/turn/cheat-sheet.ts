import type { ChatMessage, ChatRequest } from "../../foundation/ports/chat-model.ts";
import type { ProfileEntry } from "../../foundation/store/profile.ts";
import { CHEAT_SHEET_LABELS } from "../prompts/cheat-sheet.ts";
import type { SheetPassage } from "./memory-blocks.ts";
import type { SheetSlots } from "./types.ts";
import { fitProfile, renderProfileLines } from "./profile-fit.ts";

/** Everything that goes on the cheat sheet of one turn, already selected. */
interface CheatSheetInput {
  language: "de" | "en";
  userName: string;
  /** The persona's name (LILO_NAME): the speaker of her own turns in recalled passages. */
  assistantName: string;
  timezone: string;
  /** The persona's system prompt (model-independent). */
  persona: string;
  /** How to write markers (the ones this setup answers). */
  markerInstructions: string;
  /** What the user asked Lilo not to bring up, rendered: part of the stable prefix, after the rules. */
  boundaries?: string | undefined;
  /** Local date and time, computed by the program (models reckon badly with dates). */
  now: string;
  rules: string[];
  /** Already fitted to the budget (memory-blocks.ts). */
  profile: { category: string; text: string }[];
  shortTerm?: string | undefined;
  /** Important memories (store 4): on every sheet while they fit. */
  important: { text: string }[];
  /** With whom each is about ("user", "lilo" or a name): the sheet groups them by person. */
  notes: { text: string; createdAt: string; subject?: string | undefined }[];
  /** Verbatim passages from earlier conversations, each with its local time and neighbouring turns. */
  passages: SheetPassage[];
  thoughts: { text: string }[];
  /** Sections of earlier middleware (due topic, correction hints, ...): after the memories, before the turns. */
  slots: SheetSlots;
  recent: ChatMessage[];
  message: string;
}

/**
 * The part of the sheet that stays byte-identical from turn to turn, in
 * order: persona, the user's rules, boundaries,
 * marker instructions. It comes first so a provider's prompt cache serves it
 * (Anthropic's cache_control, OpenAI-compatible servers' automatic prefix
 * caching); nothing that changes per turn (the time, memories) may go in.
 */
function stableBlocks(input: Pick<CheatSheetInput, "language" | "persona" | "rules" | "boundaries" | "markerInstructions">): string[] {
  const L = CHEAT_SHEET_LABELS[input.language];
  const rules = input.rules.length ? `${L.rules}\n${bullets(input.rules)}` : "";
  return [input.persona, rules, input.boundaries ?? "", input.markerInstructions].map((b) => b.trim()).filter(Boolean);
}

/**
 * Assembles the prompt in the documented order: the stable part first
 * (stableBlocks), then the per-turn sheet. What matters most sits at the
 * start (persona, rules) and the end (recent turns, the message), since
 * models overlook the middle of long prompts ("lost in the middle").
 */
export function buildCheatSheet(input: CheatSheetInput): ChatRequest {
  const L = CHEAT_SHEET_LABELS[input.language];
  const stablePrefix = `${stableBlocks(input).join("\n\n")}\n\n`;
  const sections: string[] = [L.now(input.now, input.timezone)];
  const profile = renderProfileLines(input.profile.map((p, id) => ({ id, userId: "", createdAt: "", updatedAt: "", ...p })));
  if (profile) sections.push(`${L.profile(input.userName)}\n${profile}`);
  if (input.important.length) sections.push(`${L.important}\n${bullets(input.important.map((i) => i.text))}`);
  if (input.shortTerm) sections.push(`${L.shortTerm}\n${input.shortTerm.trim()}`);
  for (const [who, notes] of bySubject(input.notes)) {
    const head = who === "user" ? L.notes(input.userName) : L.aboutPerson(who === "lilo" ? input.assistantName : who);
    sections.push(`${head}\n${bullets(notes.map((n) => n.text))}`);
  }
  if (input.passages.length) sections.push(`${L.passages}\n${input.passages.map((p) => renderPassage(p, input.userName, input.assistantName)).join("\n\n")}`);
  if (input.thoughts.length) sections.push(`${L.thoughts}\n${bullets(input.thoughts.map((t) => t.text))}`);
  for (const extra of slotSections(input.slots)) if (extra.trim()) sections.push(extra.trim());
  return {
    system: `${stablePrefix}${sections.join("\n\n")}`,
    stablePrefix,
    messages: alternate([...input.recent, { role: "user", content: input.message }]),
  };
}

/**
 * The middleware's sections in docs/spec.md §4 order: what became of an open
 * question, the greeting context, the due topic, correction hints, the
 * diary's answer, then the note on pictures the model cannot see.
 */
export function slotSections(s: SheetSlots): string[] {
  return [s.questionOutcome, s.returnGreeting, s.dueTopic, ...s.corrections, s.diaryQuestion, s.unseenPhotos].filter((x): x is string => x !== undefined);
}

/** Notes grouped by whom they are about, the user's own first (no subject recorded = the user's). */
function bySubject<T extends { subject?: string | undefined }>(notes: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>([["user", []]]);
  for (const n of notes) {
    const who = n.subject ?? "user";
    groups.set(who, [...(groups.get(who) ?? []), n]);
  }
  if (!groups.get("user")!.length) groups.delete("user");
  return groups;
}

function bullets(items: string[]): string {
  return items.map((i) => `- ${i.trim()}`).join("\n");
}

/**
 * The profile, grouped by category, within a character budget (the seed's
 * profile grew without bound), filled fairly across categories (profile-fit.ts).
 */
export function renderProfile(entries: ProfileEntry[], maxChars: number, message = ""): string {
  return renderProfileLines(fitProfile(entries, maxChars, message).kept);
}

/** One passage: its run of turns, each with its local time and speaker; the hits marked with ». */
function renderPassage(p: SheetPassage, userName: string, assistantName: string): string {
  const who = (m: SheetPassage["messages"][number]) => m.speaker ?? (m.role === "user" ? userName : assistantName);
  return p.messages.map((m) => `${m.hit ? "»" : " "} [${m.localTime}] ${who(m)}: ${m.text.replace(/\s+/g, " ").trim()}`).join("\n");
}

/**
 * Providers want user and assistant turns to alternate, starting with the
 * user. Consecutive turns of one role (a retried message, a greeting Lilo
 * sent on her own) are joined instead of dropped.
 */
function alternate(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === m.role) last.content = `${last.content}\n\n${m.content}`;
    else out.push({ ...m });
  }
  while (out[0]?.role === "assistant") out.shift();
  return out;
}
