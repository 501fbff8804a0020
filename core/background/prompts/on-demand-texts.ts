import { describeError } from "../../foundation/errors.ts";
import type { DiaryReason } from "../diary/write-diary.ts";
import type { ReflectionReason } from "../reflection/reflect.ts";

/**
 * What every chat (Telegram, Matrix, the terminal) says when the user asked
 * for a diary entry or a thought now (/diary, /think) and none came: why,
 * in the persona's language. One table, so the chats cannot drift apart.
 */
export interface OnDemandTexts {
  /** Why no diary entry was written. */
  diaryNone: Record<DiaryReason, string>;
  /** Why no thought was stored. */
  thinkNone: Record<ReflectionReason, string>;
  /** The run failed; `reason` is `describeError(cause, language)`. */
  failed(reason: string): string;
}

const de: OnDemandTexts = {
  diaryNone: {
    "no-conversation": "Heute haben wir nicht gesprochen – ich erfinde keinen Tag.",
    "nothing-new": "Seit dem letzten Eintrag ist nichts Neues passiert.",
    "empty-answer": "Mir ist nichts eingefallen, was ich aufschreiben wollte.",
  },
  thinkNone: {
    "no-conversation": "Wir haben noch nicht gesprochen – worüber sollte ich nachdenken?",
    "no-new-chats": "Seit dem letzten Nachdenken ist nichts Neues passiert.",
    "empty-answer": "Es ist kein Gedanke dabei herausgekommen.",
    duplicate: "Das habe ich so ähnlich schon einmal gedacht.",
  },
  failed: (reason) => `⚠️ Das hat nicht geklappt: ${reason}`,
};

const en: OnDemandTexts = {
  diaryNone: {
    "no-conversation": "We didn't talk today – I don't invent a day.",
    "nothing-new": "Nothing new happened since the last entry.",
    "empty-answer": "Nothing came to mind that I wanted to write down.",
  },
  thinkNone: {
    "no-conversation": "We haven't talked yet – what should I think about?",
    "no-new-chats": "Nothing new happened since I last thought.",
    "empty-answer": "No thought came out of it.",
    duplicate: "I have thought much the same before.",
  },
  failed: (reason) => `⚠️ That didn't work: ${reason}`,
};

/** The texts per persona language. */
export const ON_DEMAND_TEXTS: Readonly<Record<"de" | "en", OnDemandTexts>> = { de, en };

type Language = keyof typeof ON_DEMAND_TEXTS;

/** Why /diary wrote nothing: the reason, or the failure said in the persona's language. */
export function noDiaryText(language: Language, r: { kind: "skipped"; reason: DiaryReason } | { kind: "failed"; cause: unknown }): string {
  const t = ON_DEMAND_TEXTS[language];
  return r.kind === "failed" ? t.failed(describeError(r.cause, language)) : t.diaryNone[r.reason];
}

/** Why /think stored no thought: the reason, or the failure said in the persona's language. */
export function noThoughtText(language: Language, r: { kind: "skipped"; reason: ReflectionReason } | { kind: "failed"; cause: unknown }): string {
  const t = ON_DEMAND_TEXTS[language];
  return r.kind === "failed" ? t.failed(describeError(r.cause, language)) : t.thinkNone[r.reason];
}
