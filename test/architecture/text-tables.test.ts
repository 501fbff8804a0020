import { describe, expect, it } from "vitest";
import { TERMINAL_TEXTS } from "../../adapters/terminal/texts.ts";
import { TELEGRAM_TEXTS } from "../../adapters/telegram/texts.ts";
import { MATRIX_TEXTS } from "../../adapters/matrix/texts.ts";
import { MEDIA_TEXTS as ADAPTER_MEDIA_TEXTS } from "../../adapters/shared/media-texts.ts";
import { NOT_DELIVERED } from "../../adapters/shared/push-texts.ts";
import { MEDIA_TEXTS } from "../../core/conversation/prompts/media-texts.ts";
import { TURN_TEXTS } from "../../core/conversation/prompts/turn-texts.ts";
import { RECALL_TEXTS } from "../../core/conversation/prompts/recall.ts";
import { MOOD_NAMES } from "../../core/conversation/markers/emotion.ts";
import { MARKERS } from "../../core/conversation/markers/registry.ts";
import { setupTexts } from "../../admin-cli/setup/texts.ts";
import { WHY_TEXTS } from "../../adapters/shared/why-texts.ts";
import { WRONG_TEXTS } from "../../core/conversation/questions/wrong-question.ts";
import { FORGET_TEXTS } from "../../core/conversation/questions/forget-question.ts";

/**
 * One language per persona: every text table has every entry in German and
 * in English, and no entry is in the other language. Functions are called
 * with sample arguments, so their words are checked too.
 */
const TABLES: Record<string, { de: unknown; en: unknown }> = {
  terminal: TERMINAL_TEXTS,
  telegram: TELEGRAM_TEXTS,
  matrix: MATRIX_TEXTS,
  "adapter media": ADAPTER_MEDIA_TEXTS,
  push: NOT_DELIVERED,
  "prompt media": MEDIA_TEXTS,
  turn: TURN_TEXTS,
  recall: RECALL_TEXTS,
  moods: MOOD_NAMES,
  why: WHY_TEXTS,
  "stimmt nicht": WRONG_TEXTS,
  forget: FORGET_TEXTS,
  setup: { de: setupTexts("de"), en: setupTexts("en") },
  "marker instructions": {
    de: Object.fromEntries(MARKERS.names().map((n) => [n, MARKERS.get(n)!.instruction.de])),
    en: Object.fromEntries(MARKERS.names().map((n) => [n, MARKERS.get(n)!.instruction.en])),
  },
};

/** Every string of a table entry, functions called with sample arguments; keyed by path. */
function strings(value: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (typeof value === "string") out.set(path, value);
  else if (typeof value === "function") strings((value as (...a: unknown[]) => unknown)("X", 1), path, out);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${path}[${i}]`, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) strings(v, `${path}.${k}`, out);
  return out;
}

/** Words only one of the two languages uses. */
const GERMAN =
  /[äöüßÄÖÜ]|\b(ich|du|nicht|und|der|die|das|ist|mit|kein|keine|schreib|Nachricht|Notiz|Tagebuch|Stimmung|freude|nachdenklich|traurig|neugierig|besorgt|verspielt|liebevoll|VORSCHLAG)\b/;
const ENGLISH = /\b(the|you|your|with|and|not|is|don't|didn't|write|message|note|diary|mood|please|happy|sad|curious|worried|playful|loving|SUGGESTION)\b/;

describe("text tables: one language per persona", () => {
  for (const [name, table] of Object.entries(TABLES)) {
    it(`${name}: every entry in both languages, none in the other one`, () => {
      const de = strings(table.de, name, new Map());
      const en = strings(table.en, name, new Map());
      expect([...de.keys()].sort(), `${name}: entries missing in one language`).toEqual([...en.keys()].sort());
      const wrong: string[] = [];
      // Command names (`/diary`, `!diary`) and code in backticks are the same in both languages.
      const prose = (text: string) => text.replace(/`[^`]*`|[/!][a-z_]+/g, "");
      for (const [path, text] of en) {
        if (!text.trim()) wrong.push(`en ${path}: empty`);
        if (GERMAN.test(prose(text))) wrong.push(`en ${path}: German "${GERMAN.exec(text)![0]}" in "${text}"`);
      }
      for (const [path, text] of de) {
        if (!text.trim()) wrong.push(`de ${path}: empty`);
        if (ENGLISH.test(prose(text))) wrong.push(`de ${path}: English "${ENGLISH.exec(text)![0]}" in "${text}"`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
