/**
 * /why and "forget everywhere" as the adapters show them, in the
 * persona's language: the memories an answer's sheet held, each with where it
 * came from, whom it is about and its reference ("N12") for the three
 * actions; and the outcomes of those actions.
 */
import { itemName, type Provenance, type VerdictOutcome, type WhyItem, type WhyView } from "../../core/internal.ts";

/** The adapters' words for receipts and forgetting. */
export const WHY_TEXTS = {
  de: {
    title: "Das hatte ich für diese Antwort im Kopf:",
    none: "Für diese Antwort hatte ich keine Erinnerungen auf dem Zettel.",
    noAnswer: "Ich finde keine Antwort von mir, zu der ich das sagen kann.",
    from: (p: Provenance | undefined) =>
      !p
        ? "Herkunft unbekannt"
        : p.kind === "user"
          ? `deine Worte${p.ref ? ` (Nachricht ${p.ref})` : ""}`
          : p.kind === "inference"
            ? `meine Schlussfolgerung${p.ref ? ` (zu Nachricht ${p.ref})` : ""}`
            : p.kind === "lookup"
              ? `nachgeschlagen${p.ref ? ` (${p.ref})` : ""}`
              : p.kind === "import"
                ? "importiert"
                : "vom Betreiber",
    about: (s: string) => (s === "user" ? "" : s === "lilo" ? " · über mich" : ` · über ${s}`),
    wrong: "stimmt nicht",
    outdated: "veraltet",
    forget: "vergessen",
    hint: "Antworte mit /wrong N12, /outdated N12 oder /forget N12 (Nummer aus der Liste).",
    wrongDone: (t: string, id?: number) => `✏️ Als falsch markiert: „${t}“${id ? ` (rückgängig: lilo corrections undo ${id})` : ""}`,
    outdatedDone: (t: string) => `🕰 Als veraltet markiert: „${t}“ – bleibt in der Geschichte.`,
    noItem: "Diesen Eintrag gibt es nicht (mehr).",
    forgetNothing: "Dazu finde ich nichts in meinen Erinnerungen.",
    forgetUsage: "So geht's: /forget <Wörter> oder /forget <Nummer>.",
  },
  en: {
    title: "This is what I had in mind for that answer:",
    none: "My sheet held no memories for that answer.",
    noAnswer: "I find no answer of mine to explain.",
    from: (p: Provenance | undefined) =>
      !p
        ? "origin unknown"
        : p.kind === "user"
          ? `your words${p.ref ? ` (message ${p.ref})` : ""}`
          : p.kind === "inference"
            ? `my inference${p.ref ? ` (from message ${p.ref})` : ""}`
            : p.kind === "lookup"
              ? `looked up${p.ref ? ` (${p.ref})` : ""}`
              : p.kind === "import"
                ? "imported"
                : "by the operator",
    about: (s: string) => (s === "user" ? "" : s === "lilo" ? " · about me" : ` · about ${s}`),
    wrong: "wrong",
    outdated: "outdated",
    forget: "forget",
    hint: "Reply with /wrong N12, /outdated N12 or /forget N12 (the reference from the list).",
    wrongDone: (t: string, id?: number) => `✏️ Marked wrong: "${t}"${id ? ` (undo: lilo corrections undo ${id})` : ""}`,
    outdatedDone: (t: string) => `🕰 Marked outdated: "${t}" – kept in the history.`,
    noItem: "There is no such entry (any more).",
    forgetNothing: "I find nothing about that in my memories.",
    forgetUsage: "Usage: /forget <words> or /forget <number>.",
  },
} as const;

/** The texts in one language. */
export type WhyTexts = (typeof WHY_TEXTS)["de"] | (typeof WHY_TEXTS)["en"];

const CLIP = 160;
const clip = (s: string) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > CLIP ? `${flat.slice(0, CLIP - 1)}…` : flat;
};

/** One item as a line: reference, store, text, origin, whom it is about. */
export function whyLine(language: "de" | "en", item: WhyItem): string {
  const t = WHY_TEXTS[language];
  return `${item.ref} · ${itemName(language, item.store)}: ${clip(item.text)}\n   ↳ ${t.from(item.provenance)}${item.subject ? t.about(item.subject) : ""}`;
}

/** The whole receipt as text; `withHint` adds how to act on an item by typing (Matrix, terminal). */
export function whyText(language: "de" | "en", view: WhyView | undefined, withHint: boolean, prefix = "/"): string {
  const t = WHY_TEXTS[language];
  if (!view) return t.noAnswer;
  if (!view.items.length) return t.none;
  const hint = withHint ? ["", t.hint.replaceAll("/", prefix)] : [];
  return [t.title, ...view.items.map((i) => whyLine(language, i)), ...hint].join("\n");
}

/** What a verdict did, in words. */
export function verdictText(language: "de" | "en", outcome: VerdictOutcome | undefined): string {
  const t = WHY_TEXTS[language];
  if (!outcome) return t.noItem;
  return outcome.verdict === "wrong" ? t.wrongDone(clip(outcome.text), outcome.correctionId) : t.outdatedDone(clip(outcome.text));
}
