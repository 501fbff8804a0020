import type { DiaryResult, ReflectionResult } from "../../core/index.ts";
import type { TelegramTexts } from "./texts.ts";

/**
 * What /diary ("write now") and /think ("think now") show: the new entry or
 * thought, or why there is none. The owner asked for it, so the text itself
 * is shown; failures carry the core's reason.
 */
export function diaryReply(r: DiaryResult, t: TelegramTexts): string {
  if (r.written && r.text) return `${t.diaryWritten(r.day ?? "")}\n\n${r.text}`;
  if (r.reason === "failed") return t.jobFailed(r.error ?? "?");
  return t.diaryNone[r.reason ?? "empty-answer"];
}

/**
 * The reply to /think: the thought, plus a concern it raised for the topic
 * list — unless the concern was just pushed to this phone (not said twice).
 */
export function thinkReply(r: ReflectionResult, t: TelegramTexts): string {
  const concern = r.concern && r.concern.status !== "duplicate" && r.concern.push !== "sent" ? r.concern : undefined;
  // The concern text carries its 🧠 already; the label brings its own.
  if (r.thought) return [`💭 ${r.thought.text}`, ...(concern ? [t.concernNoted(concern.text.replace(/^🧠\s*/u, ""))] : [])].join("\n\n");
  if (r.reason === "failed") return t.jobFailed(r.error ?? "?");
  return t.thinkNone[r.reason ?? "empty-answer"];
}
