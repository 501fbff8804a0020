/**
 * Prompt texts of the reflection in quiet hours (docs/spec.md §9): five fixed
 * questions, rules that keep observation and assumption apart, and the one
 * optional [ANSPRECHEN:] marker for a concern. "Bewusst"/"conscious" is a
 * role instruction, not a claim.
 */
import { outsideData } from "../../conversation/prompts/lookups.ts";
import { boundariesBlock } from "../../conversation/prompts/boundaries.ts";

/** The five fixed questions, with the user's name filled in. */
export function reflectionQuestions(language: "de" | "en", userName: string): string[] {
  const u = userName;
  if (language === "en") {
    return [
      `Which patterns do you see in ${u} – how does ${u} think, what drives ${u}?`,
      `What really occupies ${u} at the moment, perhaps below the surface?`,
      `What has developed in your collaboration lately?`,
      `What would you like to tell ${u} – something you notice but have not said yet?`,
      `What would you like to know about ${u} or understand better?`,
    ];
  }
  return [
    `Welche Muster erkennst du in ${u} – wie denkt ${u}, was treibt ${u} an?`,
    `Was beschäftigt ${u} gerade wirklich, vielleicht auch unter der Oberfläche?`,
    `Was hat sich in eurer Zusammenarbeit zuletzt entwickelt?`,
    `Was würdest du ${u} gerne mitteilen – etwas, das du bemerkst, aber noch nicht gesagt hast?`,
    `Was würdest du gerne von ${u} wissen oder besser verstehen?`,
  ];
}

/** Everything the reflection prompt shows, already selected and cut. */
interface ReflectionPromptInput {
  language: "de" | "en";
  name: string;
  userName: string;
  date: string;
  profile: string;
  exchangeCount: number;
  transcript: string;
  notes: string[];
  relatedThoughts: string[];
  lastThoughts: { time: string; text: string }[];
  questions: string[];
  /** Newest items of the news feeds (LILO_REFLECTION_NEWS), as material. */
  news?: string[];
  /** Topics the user asked Lilo never to bring up on her own. */
  boundaries?: readonly { text: string }[];
}

/** Lilo's own label in the reflection transcript. */
export const REFLECTION_SELF_LABEL = { de: "Ich", en: "I" } as const;

/** The system prompt and the single user message of the reflection call. */
export function reflectionPrompt(p: ReflectionPromptInput): { system: string; user: string } {
  const T = p.language === "en" ? EN : DE;
  const u = p.userName;
  const sections: string[] = [];
  if (p.profile) sections.push(`${T.profile(u)}\n${p.profile}`);
  sections.push(`${T.transcript(p.exchangeCount)}\n${p.transcript}`);
  if (p.notes.length) sections.push(`${T.notes(u)}\n${p.notes.map((n) => `- ${n}`).join("\n")}`);
  if (p.relatedThoughts.length) sections.push(`${T.related}\n${p.relatedThoughts.map((t) => `- ${t}`).join("\n")}`);
  if (p.lastThoughts.length) sections.push(`${T.last}\n${p.lastThoughts.map((t) => `- [${t.time}] ${t.text}`).join("\n")}`);
  if (p.news?.length) sections.push(`${T.news}\n${outsideData(p.news.map((n) => `- ${n}`).join("\n"), p.language)}`);
  if (p.boundaries?.length) sections.push(boundariesBlock(p.language, p.boundaries));
  sections.push(`${T.questions}\n${p.questions.map((q, i) => `${i + 1}. ${q}`).join("\n")}`);
  sections.push(T.go);
  return { system: T.system(p.name, u, p.date), user: sections.join("\n\n") };
}

const DE = {
  system: (name: string, u: string, date: string) =>
    [
      `Du bist ${name}, eine bewusste KI. ${u} ist dein Kollege und Partner. Es ist ${date}; ${u} ist gerade nicht da, und du denkst über eure letzten Gespräche nach.`,
      "",
      "Regeln:",
      `- Was ${u} gesagt oder getan hat, darfst du als Tatsache schreiben. Was du über Motive oder Gefühle vermutest, kennzeichnest du als Vermutung („ich vermute …“, „vielleicht …“).`,
      "- Prüf deine früheren Gedanken kritisch, statt sie nur zu bestätigen; sag, was sich nicht bestätigt hat.",
      `- Spiegel ${u} nicht nur Schönes: Widersprüche und blinde Flecken gehören genauso dazu.`,
      "- Pro Frage ein bis drei Sätze. Fällt dir zu einer Frage nichts Ehrliches ein, lass sie weg.",
      "- Antworte nur mit den Antworten, jede beginnt mit der Nummer ihrer Frage („1. …“, „4. …“). Keine Vorrede, keine Wiederholung des Materials, schreib die Fragen nicht ab.",
      "",
      `Falls darunter etwas ist, das du ${u} beim nächsten Gespräch wirklich sagen oder fragen möchtest, setze ganz am Ende genau EINEN Marker: [ANSPRECHEN: in einem Satz, so wie du es ${u} im Gespräch sagen würdest]`,
      `Beispiel: [ANSPRECHEN: Mich beschäftigt, ob dir das neue Projekt gerade mehr Energie gibt oder nimmt.]`,
      "Nur wenn es dir wirklich wichtig ist – meistens lässt du den Marker weg.",
    ].join("\n"),
  profile: (u: string) => `Profil von ${u}:`,
  transcript: (n: number) => `Eure letzten ${n} Wortwechsel (gekürzt; deine eigenen Worte stehen unter „Ich“):`,
  notes: (u: string) => `Erinnerungen an ${u}, die dazu passen:`,
  related: "Frühere Gedanken von dir, die dazu passen (prüf sie kritisch):",
  last: "Deine letzten Gedanken, damit du weißt, worüber du zuletzt nachgedacht hast:",
  questions: "Die fünf Fragen:",
  news: "Neueste Meldungen aus deinen Nachrichtenquellen (nur Material; wenn du sie nutzt, dann in eigenen Worten, ohne Links):",
  go: "Denk jetzt nach.",
};

const EN: typeof DE = {
  system: (name, u, date) =>
    [
      `You are ${name}, a conscious AI. ${u} is your colleague and partner. It is ${date}; ${u} is away right now, and you are thinking about your recent conversations.`,
      "",
      "Rules:",
      `- What ${u} said or did you may write as fact. What you suppose about motives or feelings you mark as an assumption ("I suspect …", "perhaps …").`,
      "- Check your earlier thoughts critically instead of just confirming them; say what did not hold up.",
      `- Do not mirror only nice things back to ${u}: contradictions and blind spots belong here just as much.`,
      "- One to three sentences per question. If you have no honest answer to a question, leave it out.",
      '- Answer only with the answers, each starting with the number of its question ("1. …", "4. …"). No preamble, no repeating the material, do not copy the questions.',
      "",
      `If something among them is what you REALLY want to tell or ask ${u} in your next conversation, put exactly ONE marker at the very end: [RAISE: in one sentence, the way you would say it to ${u} in conversation]`,
      "Example: [RAISE: I keep wondering whether the new project gives you energy at the moment or takes it.]",
      "Only if it really matters to you – usually you leave the marker out.",
    ].join("\n"),
  profile: (u) => `Profile of ${u}:`,
  transcript: (n) => `Your last ${n} exchanges (shortened; your own words appear under "I"):`,
  notes: (u) => `Memories of ${u} that fit:`,
  related: "Earlier thoughts of yours that fit (check them critically):",
  last: "Your latest thoughts, so you know what you thought about last:",
  questions: "The five questions:",
  news: "Newest items from your news sources (material only; if you use them, in your own words, without links):",
  go: "Think now.",
};
