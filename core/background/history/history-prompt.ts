import { PROFILE_CATEGORIES } from "../../foundation/store/profile.ts";

/** Who speaks in an imported chat, for the prompt. */
export interface HistoryPromptPeople {
  /** How the person is named in the memories. */
  userName: string;
  /** The name their lines carry in the transcript. */
  meName: string;
  /** The other speakers, each a person or an assistant. */
  others: { name: string; assistant: boolean }[];
  assistantName: string;
  language: "de" | "en";
}

/**
 * The extraction call over a piece of a chat the person brought along: a
 * transcript between them and other people or another assistant, never
 * with Lilo. Facts about the person come from their own lines; what another
 * person said is about that person; an assistant's answers are no one's facts.
 * Only a recent conversation (`followups`) is asked for plans to follow up on:
 * an old one's prompt does not name them at all.
 */
export function historySystemPrompt(p: HistoryPromptPeople, o: { followups?: boolean } = {}): string {
  const lang = p.language === "de" ? "German" : "English";
  const people = p.others.filter((o) => !o.assistant).map((o) => o.name);
  const assistants = p.others.filter((o) => o.assistant).map((o) => o.name);
  return [
    `You extract memories from an old chat that ${p.userName} (the user, writing as "${p.meName}") had before meeting ${p.assistantName}.`,
    people.length ? `The other people in it: ${people.join(", ")}.` : null,
    assistants.length ? `${assistants.join(", ")} ${assistants.length === 1 ? "is" : "are"} an AI assistant, not ${p.assistantName}.` : null,
    `Return ONLY a JSON object, no prose, with exactly these keys:`,
    `{"facts": [{"text": string, "about": string}], "profile": [{"category": string, "text": string}], "important": [{"text": string, "weight": 1|2|3, "about": string}]${o.followups ? `, "followups": [{"text": string, "date": "YYYY-MM-DD" | null}]` : ""}}`,
    ``,
    `- facts: short, atomic, lasting facts: preferences, plans, projects, people, places. "about" is "user" for ${p.userName}, else the person's name as written.`,
    `- profile: stable facts for ${p.userName}'s profile, category one of ${PROFILE_CATEGORIES.join(", ")}.`,
    `- important: at most one or two things worth keeping as especially important. Usually empty.`,
    o.followups
      ? `- followups: ${p.userName}'s own plans or events still ahead at the end of the chat (an appointment, an exam, a trip), worth asking about afterwards. "text" is the question to ask then, e.g. "How did the dentist appointment go?"; "date" the day it happens, worked out from the dates of the lines ("Thursday" after a line of Monday 2026-03-02 is 2026-03-05), null when the chat names no day. Usually empty.`
      : null,
    ``,
    `Hard rules:`,
    `- A fact about ${p.userName} must come from ${p.meName}'s OWN lines. What another person says is about that person (about: their name), never ${p.userName}'s own fact.`,
    assistants.length ? `- Never make a fact of what ${assistants.join(" or ")} says about itself or suggests; it is not ${p.assistantName}.` : null,
    `- Leave out small talk and greetings. Empty arrays are fine and common.`,
    `- Write the texts in ${lang}, in the third person, naming whom they are about.`,
  ]
    .filter((l) => l !== null)
    .join("\n");
}

/** The user part: the transcript, one message a line. */
export function historyUserPrompt(title: string, lines: string[]): string {
  return [`<chat title="${title.replace(/"/g, "'")}">`, ...lines, `</chat>`].join("\n");
}
