import { PROFILE_CATEGORIES } from "../../foundation/store/profile.ts";

/**
 * The one extraction call after each reply (the seed used three). The model
 * sees the user's message and Lilo's answer, clearly separated, and must take
 * facts only from the user's own words.
 */
export function extractionSystemPrompt(p: { userName: string; named?: boolean; assistantName: string; language: "de" | "en" }): string {
  const lang = p.language === "de" ? "German" : "English";
  const named = p.named !== false;
  // The example in the memory's own language; an unnamed user's facts name nobody, so they stay true once the name is known.
  const example =
    p.language === "de"
      ? named
        ? `${p.userName} mag kurze Antworten`
        : "Mag kurze Antworten"
      : named
        ? `${p.userName} likes short answers`
        : "Likes short answers";
  return [
    `You extract memories from one chat exchange between ${p.userName} (the user) and ${p.assistantName} (the AI).`,
    `Return ONLY a JSON object, no prose, with exactly these keys:`,
    `{"facts": string[], "content": string[], "profile": [{"category": string, "text": string}], "important": [{"text": string, "weight": 1|2|3}]}`,
    ``,
    `- facts: short, atomic facts about ${p.userName}: preferences, technical details, projects, plans, appointments. One fact per string, e.g. "${example}".`,
    `- content: what was actually said in this exchange, in one or two sentences each: topics, statements, opinions, conclusions — WHAT was discussed, not just that something was discussed.`,
    `- profile: lasting facts for ${p.userName}'s profile, category one of ${PROFILE_CATEGORIES.join(", ")}. Only stable facts (name, job, family, long-running projects, firm preferences).`,
    `- important: at most one or two things ${p.assistantName} should keep as especially important (weight 3 = very important). Usually empty.`,
    ``,
    `Hard rules:`,
    `- A fact or profile entry about ${p.userName} must come from ${p.userName}'s OWN message. Never turn something ${p.assistantName} said, guessed or suggested into a fact about ${p.userName}.`,
    `- Leave out small talk and pleasantries. Empty arrays are fine and common.`,
    named
      ? `- Write the texts in ${lang}, in the third person, naming ${p.userName}.`
      : `- Write the texts in ${lang}, in the third person without a name or a stand-in for one (the name is not known yet), e.g. "${example}".`,
  ].join("\n");
}

/** The user part of the extraction call. */
export function extractionUserPrompt(p: { userName: string; assistantName: string; userText: string; assistantText: string; date: string }): string {
  return [
    `Date: ${p.date}`,
    `<message from="${p.userName}">`,
    p.userText,
    `</message>`,
    `<answer from="${p.assistantName}">`,
    p.assistantText,
    `</answer>`,
  ].join("\n");
}

/** Sent once when the first answer was not valid JSON of the asked shape. */
export function extractionRetryPrompt(problem: string): string {
  return `Your answer could not be used (${problem}). Answer again with ONLY the JSON object of the required shape.`;
}
