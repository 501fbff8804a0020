import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, tsFiles } from "./import-graph.ts";
import { MARKERS } from "../../core/conversation/markers/registry.ts";
import { setupTexts } from "../../admin-cli/setup/texts.ts";

/**
 * One language per persona: every text table has every entry in German and
 * in English, and no entry is in the other language. The tables are found
 * by reading the source: every exported object of core/, adapters/ and
 * admin-cli/ with a `de` and an `en` side is walked (the error texts, the
 * chats' texts, moods, prompts' labels…), so a new table cannot be missed.
 * Functions are called with sample arguments, so their words are checked too.
 */

/** Tables that are the same in both languages or mix them on purpose, with the reason. */
const NOT_PROSE: Record<string, string> = {
  "core/foundation/config/config.ts DEFAULT_EMBEDDING_MODELS": "model ids, not words",
  "core/memory/forgetting/forget-everywhere.ts REDACTED_TEXT": "a sign, the same in both languages",
  "admin-cli/setup/texts.ts YES_ANSWERS": "English yes answers count in German too",
};

/** Tables without an exported `{ de, en }` object of their own. */
const BUILT: Record<string, { de: unknown; en: unknown }> = {
  "admin-cli/setup/texts.ts setupTexts": { de: setupTexts("de"), en: setupTexts("en") },
  "core/conversation/markers/registry.ts marker instructions": {
    de: Object.fromEntries(MARKERS.names().map((n) => [n, MARKERS.get(n)!.instruction.de])),
    en: Object.fromEntries(MARKERS.names().map((n) => [n, MARKERS.get(n)!.instruction.en])),
  },
};

/** Source files that may hold a table: both a `de` and an `en` key, or `{ de, en }`. */
function candidates(): string[] {
  return ["core", "adapters", "admin-cli"]
    .flatMap((dir) => tsFiles(join(ROOT, dir)))
    .filter((file) => {
      const src = readFileSync(file, "utf8");
      return /\{\s*de,\s*en\s*\}|\{\s*en,\s*de\s*\}/.test(src) || (/\bde:/.test(src) && /\ben:/.test(src));
    });
}

/** A table written in the source but not exported: the walk below could not see it. */
const UNEXPORTED = /^const (\w+)[^=\n]*=\s*\{\s*(?:de|en):/gm;

/** Unexported tables that are another issue's to export, with the reason. */
const UNEXPORTED_OK: Record<string, string> = {};

/** Every exported `{ de, en }` object of the candidate files, keyed "file NAME". */
async function discoverTables(): Promise<Record<string, { de: unknown; en: unknown }>> {
  const found: Record<string, { de: unknown; en: unknown }> = {};
  for (const file of candidates()) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (value && typeof value === "object" && "de" in value && "en" in value)
        found[`${relative(ROOT, file)} ${name}`] = value as { de: unknown; en: unknown };
    }
  }
  return found;
}

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
  /[äöüßÄÖÜ]|\b(ich|du|nicht|und|der|die|das|ist|mit|kein|keine|schreib|Nachricht|Notiz|Tagebuch|Stimmung|freude|nachdenklich|traurig|neugierig|besorgt|verspielt|liebevoll|VORSCHLAG|ANSPRECHEN|braucht|setze|Anbieter|Modellanbieter)\b/i;
const ENGLISH =
  /\b(the|you|your|with|and|not|is|don't|didn't|write|message|note|diary|mood|please|happy|sad|curious|worried|playful|loving|SUGGESTION|RAISE|needs|provider|failed|could|cannot|refused)\b/i;

/**
 * The marker names of the spec (§5) that are the same in both languages: protocol
 * words like `[RECALL:]`. The two the spec names in German are taught in English
 * to the English persona ([[SUGGESTION:]], [RAISE:]), and the checks below catch
 * either in the wrong language.
 */
const SHARED_MARKER_NAMES = /\[\[?(RECALL|DIARY|IMPORTANT|SEARCH|FETCH|NEWS|THOUGHT|FOLLOWUP|EMOTION)\b/g;

/** Command names (`/diary`, `!diary`), code in backticks and shared marker names are the same in both languages. */
const prose = (text: string) => text.replace(/`[^`]*`|[/!][a-z_]+/g, "").replace(SHARED_MARKER_NAMES, "[");

/** What is wrong with one table: entries missing on a side, empty, or in the other language. */
function problems(name: string, table: { de: unknown; en: unknown }): string[] {
  const de = strings(table.de, name, new Map());
  const en = strings(table.en, name, new Map());
  const wrong: string[] = [];
  for (const path of de.keys()) if (!en.has(path)) wrong.push(`en ${path}: missing`);
  for (const path of en.keys()) if (!de.has(path)) wrong.push(`de ${path}: missing`);
  for (const [path, text] of en) {
    if (!text.trim()) wrong.push(`en ${path}: empty`);
    if (GERMAN.test(prose(text))) wrong.push(`en ${path}: German "${GERMAN.exec(prose(text))![0]}" in "${text}"`);
  }
  for (const [path, text] of de) {
    if (!text.trim()) wrong.push(`de ${path}: empty`);
    if (ENGLISH.test(prose(text))) wrong.push(`de ${path}: English "${ENGLISH.exec(prose(text))![0]}" in "${text}"`);
  }
  return wrong;
}

describe("text tables: one language per persona", () => {
  let tables: Record<string, { de: unknown; en: unknown }>;
  beforeAll(async () => {
    tables = { ...(await discoverTables()), ...BUILT };
  }, 60_000);

  it("the walk finds every table this test knows of, the excused ones included", () => {
    const names = Object.keys(tables);
    for (const expected of [
      "core/foundation/error-texts.ts ERROR_TEXTS",
      "core/background/prompts/on-demand-texts.ts ON_DEMAND_TEXTS",
      "core/conversation/markers/emotion.ts MOOD_NAMES",
      "core/conversation/prompts/turn-texts.ts TURN_TEXTS",
      "adapters/telegram/texts.ts TELEGRAM_TEXTS",
      "adapters/matrix/texts.ts MATRIX_TEXTS",
      "adapters/terminal/texts.ts TERMINAL_TEXTS",
      "adapters/shared/push-texts.ts NOT_DELIVERED",
      "admin-cli/setup/texts.ts setupTexts",
      "core/conversation/prompts/lookups.ts LOOKUP_TEXTS",
      "core/conversation/questions/questions.ts QUESTION_TEXTS",
      "adapters/telegram/web-command.ts WEB_TEXTS",
      "adapters/shared/usage-texts.ts ROLE_NAMES",
    ])
      expect(names).toContain(expected);
    expect(
      Object.keys(NOT_PROSE).filter((n) => !names.includes(n)),
      "excused tables that no longer exist",
    ).toEqual([]);
  });

  it("every table is exported, so none escapes the walk", () => {
    const hidden = candidates().flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(UNEXPORTED)].map((m) => `${relative(ROOT, file)} ${m[1]!}`).filter((n) => !(n in UNEXPORTED_OK)),
    );
    expect(hidden).toEqual([]);
  });

  it("every table: every entry in both languages, none empty, none in the other language", () => {
    const wrong = Object.entries(tables)
      .filter(([name]) => !(name in NOT_PROSE))
      .flatMap(([name, table]) => problems(name, table));
    expect(wrong).toEqual([]);
  });

  it("the check catches a missing entry or an entry in the other language", () => {
    expect(problems("t", { de: { a: "Hallo", b: "Tschüss" }, en: { a: "Hello" } })).toEqual(["en t.b: missing"]);
    expect(problems("t", { de: { a: "[DIARY: worum es ging]" }, en: { a: "[[VORSCHLAG: idea]]" } })).toEqual([
      'en t.a: German "VORSCHLAG" in "[[VORSCHLAG: idea]]"',
    ]);
    expect(problems("t", { de: { a: () => "The provider failed" }, en: { a: (p: string) => `Der Anbieter ${p}` } })).toEqual([
      'en t.a: German "Der" in "Der Anbieter X"',
      'de t.a: English "The" in "The provider failed"',
    ]);
  });
});
