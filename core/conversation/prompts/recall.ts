/**
 * The follow-up message that answers Lilo's fetch markers (docs/spec.md §5): all
 * results in one user message after her first answer, as in the seed
 * ("Beantworte jetzt … basierend auf diesen Original-Passagen"). Nothing
 * found is said plainly, so the model does not invent a memory.
 */
import { REMINDER_TEXTS } from "../reminders/reminder-texts.ts";
import type { FetchOutcome } from "../markers/marker.ts";
import type { PassageMessage, RecallPassage } from "../../memory/recall/search.ts";
import { localDay } from "../../foundation/util/time.ts";
import { lookupBody } from "./lookups.ts";

/** Everything the follow-up message shows. */
interface FetchResultsInput {
  language: "de" | "en";
  userName: string;
  assistantName: string;
  /** For the local day of diary entries. */
  timeZone: string;
  outcomes: FetchOutcome[];
}

/** Diary entries are long; the follow-up shows their start. */
const DIARY_CHARS = 1_200;

export const RECALL_PROMPT = {
  de: {
    intro: (u: string) => `Fundstücke zu deinen Markern (nur für dich; ${u} sieht weder die Marker noch diese Nachricht). Zeiten sind Ortszeit.`,
    recallHead: (terms: string, time: string) =>
      `Wörtliche Suche in euren früheren Gesprächen${terms ? ` nach ${terms}` : ""}${time ? `, Zeitraum: ${time}` : ""}. Original-Passagen, der Treffer mit → markiert:`,
    passage: (n: number, remembering: boolean) => `Passage ${n}${remembering ? " (ein späteres Gespräch übers Erinnern, nicht das Original)" : ""}:`,
    diaryHead: "Deine Tagebucheinträge, die am besten dazu passen:",
    empty: "Nichts gefunden. Sag ehrlich, dass du dazu nichts findest, statt etwas zu erfinden.",
    unavailable: "Dieses Werkzeug gibt es hier nicht. Antworte ohne es und sag, falls dir dafür Informationen fehlen.",
    failed: "Die Suche hat gerade nicht funktioniert. Sag, dass du gerade nicht nachsehen konntest; erfinde nichts.",
    outro: (u: string) =>
      `Beantworte jetzt die letzte Nachricht von ${u} auf Grundlage dieser Fundstücke. Deine vorige Antwort hat ${u} nicht gesehen: schreib die vollständige Antwort. ` +
      "Setze keine Marker zum Nachschlagen mehr ([RECALL:], [DIARY:] usw.); Marker zum Ablegen wie [EMOTION:] sind erlaubt.",
  },
  en: {
    intro: (u: string) => `Results for your markers (for you only; ${u} sees neither the markers nor this message). Times are local.`,
    recallHead: (terms: string, time: string) =>
      `Literal search in your earlier conversations${terms ? ` for ${terms}` : ""}${time ? `, time: ${time}` : ""}. Original passages, the hit marked with →:`,
    passage: (n: number, remembering: boolean) => `Passage ${n}${remembering ? " (a later conversation about remembering, not the original)" : ""}:`,
    diaryHead: "Your diary entries that fit best:",
    empty: "Nothing found. Say honestly that you find nothing about it instead of inventing something.",
    unavailable: "This tool is not available here. Answer without it and say so if you lack information for it.",
    failed: "The search did not work just now. Say that you could not look it up; invent nothing.",
    outro: (u: string) =>
      `Now answer ${u}'s last message based on these results. ${u} did not see your previous answer: write the complete answer. ` +
      "Do not write any more lookup markers ([RECALL:], [DIARY:] etc.); storing markers like [EMOTION:] are fine.",
  },
} as const;

/** Texts the turn itself shows when the follow-up cannot be written. */
export const RECALL_TEXTS = {
  de: {
    /** Shown when the first answer was only markers and the follow-up call failed. */
    lookupFailed: "Ich wollte gerade nachsehen, aber das hat nicht geklappt. Frag mich gleich noch einmal.",
  },
  en: {
    lookupFailed: "I wanted to look that up, but it didn't work just now. Ask me again in a moment.",
  },
} as const;

/** The user message of the follow-up call: one block per fetch marker, then the instruction. */
export function fetchResultsMessage(p: FetchResultsInput): string {
  const t = RECALL_PROMPT[p.language];
  const blocks = p.outcomes.map((o) => {
    const head = `[${o.marker.name}: ${o.marker.payload}]`;
    return `${head}\n${body(p, o)}`;
  });
  return [t.intro(p.userName), ...blocks, t.outro(p.userName)].join("\n\n");
}

/** The result text of one fetch outcome: the follow-up shows it under its marker, a native tool returns it as is. */
export function fetchOutcomeText(p: Omit<FetchResultsInput, "outcomes">, o: FetchOutcome): string {
  return body(p, o);
}

function body(p: Omit<FetchResultsInput, "outcomes">, o: FetchOutcome): string {
  const t = RECALL_PROMPT[p.language];
  if (o.status !== "unavailable" && o.status !== "failed" && o.status !== "refused" && o.kind === "reminder") {
    return o.status === "found" ? REMINDER_TEXTS[p.language].forModel.set(o.text) : REMINDER_TEXTS[p.language].forModel.notSet(o.text);
  }
  const lookup = lookupBody(o, p.language, p.timeZone);
  if (lookup !== undefined) return lookup;
  if (o.status === "unavailable") return t.unavailable;
  if (o.status === "failed") return t.failed;
  if (o.status === "empty") return t.empty;
  if (o.status === "refused" || (o.kind !== "recall" && o.kind !== "diary")) return t.failed; // lookupBody answered these
  if (o.kind === "diary") {
    const entries = o.entries.map((e) => `- ${localDay(new Date(e.createdAt), p.timeZone)}: ${cut(e.text, DIARY_CHARS)}`);
    return [t.diaryHead, ...entries].join("\n");
  }
  const quote = (w: string) => (p.language === "de" ? `„${w}“` : `"${w}"`);
  const head = t.recallHead(o.terms.map(quote).join(", "), o.timeWords.join(" "));
  return [head, ...o.passages.map((x, i) => passage(p, x, i + 1))].join("\n\n");
}

function passage(p: Omit<FetchResultsInput, "outcomes">, x: RecallPassage, n: number): string {
  const line = (m: PassageMessage, isHit: boolean) =>
    `${isHit ? "→ " : "  "}[${m.localTime}] ${m.speaker ?? (m.role === "user" ? p.userName : p.assistantName)}: ${m.text.replace(/\s*\n\s*/g, " ")}`;
  const lines = [x.before && line(x.before, false), line(x.hit, true), x.after && line(x.after, false)].filter(Boolean);
  return [RECALL_PROMPT[p.language].passage(n, x.aboutRemembering), ...lines].join("\n");
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ");
  return flat.length > max ? `${flat.slice(0, max).trimEnd()} …` : flat;
}
