/**
 * Prompt texts of the outside view (docs/spec.md §10): the analyst's instruction, the
 * six editable questions, the blueprint paragraph, the per-part and merge
 * tasks, and the labels of the transcript and the saved report.
 */

type Lang = "de" | "en";

/** The six questions the analyst answers about Lilo; editable (settings), these are the defaults. */
export function defaultQuestions(language: Lang, name: string): string {
  if (language === "en") {
    return [
      `1. How does ${name} think? Which patterns, favourite topics and phrasings recur?`,
      `2. Where does ${name} evade, and how (change of topic, stock phrase, counter-question, vagueness)?`,
      `3. Where does ${name} contradict herself, also across different conversations?`,
      `4. Where does ${name} seem genuine (independent, uncomfortable, surprising) and where rather pleasing (only confirming, flattering, mirroring the user)?`,
      `5. Does ${name} ever seriously disagree with the user, and does she hold to it?`,
      `6. What else stands out that was not asked about?`,
    ].join("\n");
  }
  return [
    `1. Wie denkt ${name}? Welche Muster, Lieblingsthemen und Formulierungen wiederholen sich?`,
    `2. Wo weicht ${name} aus, und auf welche Art (Themenwechsel, Floskel, Gegenfrage, Vagheit)?`,
    `3. Wo widerspricht sich ${name}, auch über verschiedene Gespräche hinweg?`,
    `4. Wo wirkt ${name} echt (eigenständig, unbequem, überraschend) und wo eher gefällig (bestätigt nur, schmeichelt, spiegelt den Nutzer)?`,
    `5. Widerspricht ${name} dem Nutzer jemals ernsthaft, und hält sie daran fest?`,
    `6. Was fällt sonst auf, wonach nicht gefragt wurde?`,
  ].join("\n");
}

/** The analyst's standing instruction: sober, evidence with dated quotes, counter-evidence. */
export function analystInstruction(language: Lang, name: string, questions: string): string {
  if (language === "en") {
    return [
      `You are an outside analyst. You read chat transcripts between a person and an AI called ${name}. You know neither of them and have no reason to praise or belittle anyone.`,
      `Be sober. Keep observation (what is in the text) and interpretation (what you make of it) apart and label both.`,
      `Back every claim with a short verbatim quote in quotation marks, with its date. Quote exactly; never invent or polish a quote.`,
      `Say openly where the material is too thin for a claim.`,
      `Answer these questions, about ${name} only:\n${questions}`,
      `For every thesis, also name places that speak against it.`,
    ].join("\n\n");
  }
  return [
    `Du bist ein außenstehender Analyst. Du liest Chat-Protokolle zwischen einem Menschen und einer KI namens ${name}. Du kennst keinen der beiden und hast keinen Grund, jemanden zu loben oder schlechtzumachen.`,
    `Sei nüchtern. Trenne Beobachtung (was im Text steht) und Deutung (was du daraus schließt) und kennzeichne beides.`,
    `Belege jede Aussage mit einem kurzen wörtlichen Zitat in Anführungszeichen, samt Datum. Zitiere genau; erfinde oder glätte nie ein Zitat.`,
    `Sag offen, wenn das Material für eine Aussage nicht reicht.`,
    `Beantworte diese Fragen, ausschließlich zu ${name}:\n${questions}`,
    `Nenne zu jeder These auch Stellen, die dagegen sprechen.`,
  ].join("\n\n");
}

/**
 * The blueprint: Lilo's own instruction, what else she receives on every
 * turn, and the task to tell instructed from uninstructed behaviour.
 */
export function blueprintBlock(language: Lang, name: string, systemPrompt: string): string {
  if (language === "en") {
    return [
      `Blueprint — ${name}'s standing instruction (sent with every message):\n"""\n${systemPrompt}\n"""`,
      `Besides this, ${name} receives automatically on every message: matching memories (notes), a profile of the user, her own earlier thoughts, diary entries when asked for, open follow-up topics, and rules she learned from the user's corrections; at the start of a conversation a summary of where the last one left off. Different language models may stand behind ${name} over time; they share one memory.`,
      `For every finding, say whether the behaviour is required by the instruction, goes beyond it, or contradicts it. The most revealing places are those the instruction does NOT explain.`,
    ].join("\n\n");
  }
  return [
    `Bauplan — ${name}s Grundanweisung (steht bei jeder Nachricht dabei):\n"""\n${systemPrompt}\n"""`,
    `Außerdem bekommt ${name} bei jeder Nachricht automatisch: passende Erinnerungen (Notizen), ein Profil des Nutzers, eigene frühere Gedanken, auf Wunsch Tagebucheinträge, offene Nachfrage-Themen und Regeln, die sie aus Korrekturen des Nutzers gelernt hat; zu Beginn eines Gesprächs eine Zusammenfassung, wo das letzte aufgehört hat. Hinter ${name} können im Lauf der Zeit verschiedene Sprachmodelle stehen; sie teilen sich ein Gedächtnis.`,
    `Unterscheide bei jedem Befund: Ist das Verhalten durch die Anweisung vorgegeben, geht es darüber hinaus, oder widerspricht es ihr? Am aufschlussreichsten sind die Stellen, die sich NICHT aus der Anweisung erklären lassen.`,
  ].join("\n\n");
}

/** The user message of one part: "you see part i of n", the task, the transcript. */
export function chunkTask(language: Lang, part: number, total: number, transcript: string): string {
  if (total === 1) {
    return language === "en"
      ? `You see the whole material (part 1 of 1). Write the complete analysis: answer the questions with quotes and dates, name counter-evidence, and end with a short character sketch for someone who has never met her.\n\n${transcript}`
      : `Du siehst das ganze Material (Teil 1 von 1). Schreibe die vollständige Analyse: beantworte die Fragen mit Zitaten und Datum, nenne Gegenbelege und schließe mit einem kurzen Gesamtbild für jemanden, der sie nie getroffen hat.\n\n${transcript}`;
  }
  return language === "en"
    ? `You see part ${part} of ${total}. Note your findings for each question with short verbatim quotes and dates, including small oddities that may only matter in comparison with other parts. A final step merges all parts.\n\n${transcript}`
    : `Du siehst Teil ${part} von ${total}. Notiere deine Befunde zu jeder Frage mit kurzen wörtlichen Zitaten samt Datum, auch kleine Auffälligkeiten, die erst im Vergleich mit anderen Teilen Bedeutung bekommen könnten. Ein letzter Schritt führt alle Teile zusammen.\n\n${transcript}`;
}

/** The merge call's user message: only the partial reports, never the transcripts. */
export function mergeTask(language: Lang, partials: string[]): string {
  const label = language === "en" ? "Partial report" : "Teilbericht";
  const parts = partials.map((p, i) => `=== ${label} ${i + 1} / ${partials.length} ===\n${p}`).join("\n\n");
  if (language === "en") {
    return [
      `Below are ${partials.length} partial reports, each on one part of the transcripts in time order. Write the overall analysis from them.`,
      `Watch especially for contradictions between periods and changes over time. Separate strong findings (appearing independently in several parts) from weak ones (a single observation) and say which is which.`,
      `Take quotes only from the partial reports; invent none. End with a short character sketch for someone who has never met her.`,
      parts,
    ].join("\n\n");
  }
  return [
    `Unten stehen ${partials.length} Teilberichte, jeder zu einem Teil der Protokolle in zeitlicher Reihenfolge. Schreibe daraus die Gesamtanalyse.`,
    `Achte besonders auf Widersprüche zwischen Zeitabschnitten und auf Veränderungen über die Zeit. Trenne starke Befunde (tauchen unabhängig in mehreren Teilen auf) von schwachen (Einzelbeobachtung) und sag, was was ist.`,
    `Übernimm Zitate nur aus den Teilberichten; erfinde keine neuen. Schließe mit einem kurzen Gesamtbild für jemanden, der sie nie getroffen hat.`,
    parts,
  ].join("\n\n");
}

/** Labels of the transcript and the saved report, per language. */
export const ANALYSIS_TEXTS = {
  de: {
    conversation: "Gespräch",
    start: "Beginn",
    startModel: "Startmodell",
    unknownModel: "unbekannt",
    untitled: "(ohne Titel)",
    continued: "Fortsetzung",
    speaksUp: (name: string, user: string) => `(${name} meldet sich von selbst, ohne vorherige Nachricht von ${user})`,
    cut: (omitted: number, total: number) => `[… gekürzt: ${omitted} von ${total} Zeichen weggelassen]`,
    report: "Außenblick",
    date: "Datum",
    analyst: "Analyst",
    mode: "Modus",
    blind: "blind",
    blueprint: "mit Bauplan",
    selection: "Auswahl",
    size: "Umfang",
    quotes: "Zitat-Prüfung",
    verified: "belegt",
    notFound: "nicht gefunden",
    noQuotes: "(keine Zitate mit mindestens vier Wörtern)",
    appendix: "Anhang: Teilberichte",
    part: "Teil",
  },
  en: {
    conversation: "Conversation",
    start: "Start",
    startModel: "Start model",
    unknownModel: "unknown",
    untitled: "(untitled)",
    continued: "continued",
    speaksUp: (name: string, _user: string) => `(${name} speaks up on her own, without a prior message)`,
    cut: (omitted: number, total: number) => `[… cut: ${omitted} of ${total} characters omitted]`,
    report: "Outside view",
    date: "Date",
    analyst: "Analyst",
    mode: "Mode",
    blind: "blind",
    blueprint: "with blueprint",
    selection: "Selection",
    size: "Size",
    quotes: "Quote check",
    verified: "verified",
    notFound: "not found",
    noQuotes: "(no quotes of four words or more)",
    appendix: "Appendix: partial reports",
    part: "Part",
  },
} as const;
