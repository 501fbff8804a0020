/**
 * The instruction that comes with the one due topic on the cheat sheet
 * (docs/spec.md §9). A 🧠 concern is Lilo's own: brought in casually as her own
 * observation, and kept for later when the user is in the middle of something.
 */
export function dueTopicInstruction(language: "de" | "en", topic: { kind: "followup" | "concern"; text: string }, userName: string): string {
  const text = topic.text.trim();
  if (language === "en") {
    if (topic.kind === "concern") {
      return [
        `Something came to you while reflecting in a quiet moment, and you would like to tell or ask ${userName}:`,
        text,
        `Bring it in as your own question or observation, casually and without pressure, e.g. "Something occurred to me while I was thinking the other day …".`,
        `If ${userName} is in the middle of a problem right now, keep it for later: it stays on your list.`,
      ].join("\n");
    }
    return [
      `A topic you wanted to follow up on with ${userName}:`,
      text,
      "If it fits, ask about it naturally, in passing (e.g. how it went); do not force it into the conversation.",
    ].join("\n");
  }
  if (topic.kind === "concern") {
    return [
      `Beim Nachdenken in einem stillen Moment ist dir etwas gekommen, das du ${userName} sagen oder fragen möchtest:`,
      text,
      `Bring es als deine eigene Frage oder Beobachtung ein, beiläufig und ohne Druck, etwa mit „Mir ist neulich beim Nachdenken etwas gekommen …“.`,
      `Steckt ${userName} gerade mitten in einem Problem, heb es dir auf: Es bleibt auf deiner Liste.`,
    ].join("\n");
  }
  return [
    `Ein Thema, bei dem du bei ${userName} nachhaken wolltest:`,
    text,
    "Wenn es passt, frag natürlich und beiläufig danach (etwa, wie es gelaufen ist); zwing es nicht ins Gespräch.",
  ].join("\n");
}
