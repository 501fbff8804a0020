/** Asks for the "where we left off" summary of a finished conversation. */
export function shortTermPrompt(p: { userName: string; assistantName: string; language: "de" | "en" }): string {
  const lang = p.language === "de" ? "German" : "English";
  return [
    `Summarise where ${p.userName} and ${p.assistantName} left off in the conversation below, in ${lang}, in at most four sentences:`,
    `open questions, plans, the mood, what to pick up next time. Refer to ${p.assistantName} as "ich"/"I". No preamble.`,
  ].join("\n");
}
