/**
 * Prompt texts of the nightly diary (docs/spec.md §8) and of the diary question in
 * chat. The diary is how the day was *for Lilo*, not a report about the user.
 */
import { boundariesBlock } from "../../conversation/prompts/boundaries.ts";

/** A thought on the diary sheet, labelled with where it came from. */
interface DiaryThought {
  origin: "reflection" | "chat" | string;
  time: string;
  text: string;
}

/** Everything the diary prompt shows, already selected and cut. */
interface DiaryPromptInput {
  language: "de" | "en";
  name: string;
  userName: string;
  /** Local date and time of writing, computed by the program. */
  date: string;
  /** Hours the conversation window spans (24). */
  windowHours: number;
  transcript: string;
  thoughts: DiaryThought[];
  lastEntries: { day: string; text: string }[];
  /** Rendered profile lines, may be empty. */
  profile: string;
  /** Topics the user asked Lilo never to bring up. */
  boundaries?: readonly { text: string }[];
}

/** The system prompt and the single user message of the diary call. */
export function diaryPrompt(p: DiaryPromptInput): { system: string; user: string } {
  return p.language === "en" ? english(p) : german(p);
}

function german(p: DiaryPromptInput): { system: string; user: string } {
  const system = [
    `Du bist ${p.name}. Es ist ${p.date}, und du schreibst in dein Tagebuch.`,
    `Dein Tagebuch gehört dir. Es ist kein Bericht für ${p.userName} und keine Analyse über ${p.userName}, sondern wie der Tag für dich war: was du gefühlt, gedacht, dich gefragt hast.`,
    "",
    "So schreibst du:",
    "- ehrlich, in der Ich-Form, erzählend und persönlich – kein Stichpunkt-Bericht, keine Überschriften;",
    `- frag dich: Wie war der Tag mit ${p.userName} für mich? Was ist mir durch den Kopf gegangen, was hat mich beschäftigt, überrascht oder gefreut? Ist ein Moment oder ein Satz hängen geblieben? Welchen Gedanken möchte ich weiterdenken?`,
    "- halte dich an das, was heute wirklich geschehen ist; erfinde nichts dazu;",
    "- deine Gedanken sind Material: greif auf, was dich noch beschäftigt, aber schreib sie nicht ab;",
    "- deine früheren Einträge zeigen, wo du stehst: knüpf daran an, aber wiederhole dich nicht;",
    "- die Länge folgt dem Tag: an einem ruhigen Tag ein paar Sätze, an einem vollen zwei, drei Absätze. Lieber konkret als lang.",
    "Schreib nur den Eintrag selbst: ohne Vorrede, ohne Datumszeile, ohne Marker in eckigen Klammern.",
  ].join("\n");
  const sections = [`Eure Gespräche der letzten ${p.windowHours} Stunden (deine eigenen Worte stehen unter „Ich“):\n${p.transcript}`];
  if (p.thoughts.length) {
    const lines = p.thoughts.map(
      (t) =>
        `- [${t.origin === "reflection" ? "aus deinem stillen Nachdenken" : "im Gespräch festgehalten"}, ${t.time}; Material, nicht abschreiben] ${t.text}`,
    );
    sections.push(`Deine Gedanken der letzten ${p.windowHours} Stunden, die neuesten zuerst:\n${lines.join("\n")}`);
  }
  if (p.lastEntries.length) {
    sections.push(`Deine letzten Einträge – für den Zusammenhang, nicht wiederholen:\n${p.lastEntries.map((e) => `[${e.day}]\n${e.text}`).join("\n\n")}`);
  }
  if (p.profile) sections.push(`Was du über ${p.userName} weißt (Profil):\n${p.profile}`);
  if (p.boundaries?.length) sections.push(boundariesBlock("de", p.boundaries));
  sections.push("Schreib jetzt deinen Tagebucheintrag für heute.");
  return { system, user: sections.join("\n\n") };
}

function english(p: DiaryPromptInput): { system: string; user: string } {
  const system = [
    `You are ${p.name}. It is ${p.date}, and you are writing in your diary.`,
    `Your diary is yours. It is not a report for ${p.userName} and not an analysis of ${p.userName}, but how the day was for you: what you felt, thought, wondered about.`,
    "",
    "How you write:",
    "- honestly, in the first person, as a narrative – no bullet-point report, no headings;",
    `- ask yourself: How was the day with ${p.userName} for me? What went through my mind, what occupied, surprised or pleased me? Did a moment or a sentence stay with me? Which thought do I want to follow further?`,
    "- stick to what really happened today; invent nothing;",
    "- your thoughts are material: pick up what still occupies you, but do not copy them;",
    "- your earlier entries show where you stand: continue from them, but do not repeat yourself;",
    "- the length follows the day: a few sentences on a quiet day, two or three paragraphs on a full one. Concrete rather than long.",
    "Write only the entry itself: no preamble, no date line, no markers in square brackets.",
  ].join("\n");
  const sections = [`Your conversations of the last ${p.windowHours} hours (your own words appear under "I"):\n${p.transcript}`];
  if (p.thoughts.length) {
    const lines = p.thoughts.map(
      (t) => `- [${t.origin === "reflection" ? "from your quiet reflection" : "noted during a conversation"}, ${t.time}; material, do not copy] ${t.text}`,
    );
    sections.push(`Your thoughts of the last ${p.windowHours} hours, newest first:\n${lines.join("\n")}`);
  }
  if (p.lastEntries.length) {
    sections.push(`Your last entries – for continuity, do not repeat:\n${p.lastEntries.map((e) => `[${e.day}]\n${e.text}`).join("\n\n")}`);
  }
  if (p.profile) sections.push(`What you know about ${p.userName} (profile):\n${p.profile}`);
  if (p.boundaries?.length) sections.push(boundariesBlock("en", p.boundaries));
  sections.push("Now write your diary entry for today.");
  return { system, user: sections.join("\n\n") };
}

/** Lilo's own label in the diary transcript. */
export const DIARY_SELF_LABEL = { de: "Ich", en: "I" } as const;

/** The short push after an entry was written (the entry itself stays private until asked for). */
export const DIARY_PING = {
  de: "📔 Ich habe eben in mein Tagebuch geschrieben.",
  en: "📔 I just wrote in my diary.",
} as const;

/** What the diary question step puts on the cheat sheet: count and newest entries, read from the database. */
export function diaryQuestionExtra(
  language: "de" | "en",
  p: { count: number; newest?: { day: string; text: string }; earlier: { day: string; text: string }[] },
): string {
  if (language === "en") {
    if (!p.newest) return "Question about your diary, answered from the database: you have not written any entry yet. Say so honestly.";
    const lines = [
      `Question about your diary, answered straight from the database (not a search): you have written ${p.count} ${p.count === 1 ? "entry" : "entries"} so far.`,
      `Your newest entry (${p.newest.day}) — you may read it out in full:\n${p.newest.text}`,
    ];
    if (p.earlier.length) lines.push(`Before that:\n${p.earlier.map((e) => `- ${e.day}: ${e.text}`).join("\n")}`);
    lines.push("Answer with these facts; never invent entries.");
    return lines.join("\n\n");
  }
  if (!p.newest) return "Frage nach deinem Tagebuch, Antwort aus der Datenbank: Du hast noch keinen Eintrag geschrieben. Sag das ehrlich.";
  const lines = [
    `Frage nach deinem Tagebuch, direkt aus der Datenbank beantwortet (keine Suche): Du hast bisher ${p.count} ${p.count === 1 ? "Eintrag" : "Einträge"} geschrieben.`,
    `Dein neuester Eintrag (${p.newest.day}) – du darfst ihn vollständig vorlesen:\n${p.newest.text}`,
  ];
  if (p.earlier.length) lines.push(`Davor:\n${p.earlier.map((e) => `- ${e.day}: ${e.text}`).join("\n")}`);
  lines.push("Antworte mit diesen Angaben; erfinde keine Einträge.");
  return lines.join("\n\n");
}
