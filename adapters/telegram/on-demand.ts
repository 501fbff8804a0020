import { noDiaryText, noThoughtText, type DiaryResult, type ReflectionResult } from "../../core/internal.ts";
import type { TelegramTexts } from "./texts.ts";

/**
 * What /diary ("write now") and /think ("think now") show: the new entry or
 * thought, or why there is none (the chats' shared words from the core,
 * failures said in the persona's language). The owner asked for it, so the
 * text itself is shown.
 */
export function diaryReply(r: DiaryResult, t: TelegramTexts, language: "de" | "en"): string {
  if (r.kind === "written") return `${t.diaryWritten(r.entry.day)}\n\n${r.entry.text}`;
  return noDiaryText(language, r);
}

/**
 * The reply to /think: the thought, plus a concern it raised for the topic
 * list — unless the concern was just pushed to this phone (not said twice).
 */
export function thinkReply(r: ReflectionResult, t: TelegramTexts, language: "de" | "en"): string {
  if (r.kind !== "thought") return noThoughtText(language, r);
  const c = r.concern;
  const noted = c && c.status !== "duplicate" && !(c.status === "open" && c.push === "sent") ? c : undefined;
  // The concern text carries its 🧠 already; the label brings its own.
  return [`💭 ${r.thought.text}`, ...(noted ? [t.concernNoted(noted.text.replace(/^🧠\s*/u, ""))] : [])].join("\n\n");
}
