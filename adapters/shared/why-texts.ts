/**
 * /why and "forget everywhere" as the adapters show them, in the
 * persona's language: the memories an answer's sheet held, each with where it
 * came from, whom it is about and its reference ("N12") for the three
 * actions; and the outcomes of those actions.
 */
import { groupWhyItems, itemName, type Provenance, type VerdictOutcome, type WhyGroup, type WhyItem, type WhyView } from "../../core/internal.ts";

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
                ? `importiert${p.ref ? ` (${p.ref})` : ""}`
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
                ? `imported${p.ref ? ` (${p.ref})` : ""}`
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
  return whyGroupLine(language, { text: item.text, items: [item] });
}

/**
 * One fact as a line, however many stores keep it: every reference and
 * store, the text once, and each different origin ("N12 · I3 · Notiz,
 * Wichtig: …").
 */
function whyGroupLine(language: "de" | "en", group: WhyGroup): string {
  const t = WHY_TEXTS[language];
  const refs = group.items.map((i) => i.ref).join(" · ");
  const stores = [...new Set(group.items.map((i) => itemName(language, i.store)))].join(", ");
  const origins = [...new Set(group.items.map((i) => `${t.from(i.provenance)}${i.subject ? t.about(i.subject) : ""}`))].join("; ");
  return `${refs} · ${stores}: ${clip(group.text)}\n   ↳ ${origins}`;
}

/** The whole receipt as text; `withHint` adds how to act on an item by typing (Matrix, terminal). */
export function whyText(language: "de" | "en", view: WhyView | undefined, withHint: boolean, prefix = "/"): string {
  const t = WHY_TEXTS[language];
  if (!view) return t.noAnswer;
  if (!view.items.length) return t.none;
  const hint = withHint ? ["", t.hint.replaceAll("/", prefix)] : [];
  return [t.title, ...groupWhyItems(view.items).map((g) => whyGroupLine(language, g)), ...hint].join("\n");
}

/** What a verdict did, in words. */
export function verdictText(language: "de" | "en", outcome: VerdictOutcome | undefined): string {
  const t = WHY_TEXTS[language];
  if (!outcome) return t.noItem;
  return outcome.verdict === "wrong" ? t.wrongDone(clip(outcome.text), outcome.correctionId) : t.outdatedDone(clip(outcome.text));
}
