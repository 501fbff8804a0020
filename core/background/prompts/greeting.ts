/**
 * Prompt texts of greetings (docs/spec.md §9): the context when the user comes back
 * after a pause (on the turn's cheat sheet), and the greeting Lilo pushes on
 * her own. Every date and the pause come computed by the program.
 */
import type { ReturnContext } from "../greeting/context.ts";

type Lang = "de" | "en";

/** Lilo's own label in the earlier messages: she reads them as her own words. */
export const GREETING_SELF_LABEL = { de: "Du", en: "You" } as const;

/** The computed facts and the earlier messages, shared by both greetings. */
function returnContextBlock(language: Lang, c: ReturnContext): string {
  if (language === "en") {
    return [
      "Return after a pause – computed by the program, reliable; do not reckon it yourself:",
      `- Today is ${c.today}, ${c.time}.`,
      `- The last message was written ${c.lastAt}; the pause: ${c.pause}.`,
      ...c.tomorrow.map((t) => `- "Tomorrow" in a message of ${t.said} ${t.past ? `was ${t.meant} – that is past.` : `is ${t.meant}.`}`),
      `The last messages before the pause:\n${c.lines.join("\n")}`,
      `Appointments that were "tomorrow" back then may be over by now: then ask how it went instead of wishing luck.`,
    ].join("\n");
  }
  return [
    "Rückkehr nach einer Pause – vom Programm berechnet und verlässlich; rechne nicht selbst nach:",
    `- Heute ist ${c.today}, ${c.time} Uhr.`,
    `- Die letzte Nachricht kam ${c.lastAt}; die Pause: ${c.pause}.`,
    ...c.tomorrow.map((t) => `- „Morgen“ in einer Nachricht von ${t.said} ${t.past ? `war ${t.meant} – das ist vorbei.` : `ist ${t.meant}.`}`),
    `Die letzten Nachrichten vor der Pause:\n${c.lines.join("\n")}`,
    "Termine, die damals „morgen“ waren, können inzwischen vorbei sein: Frag dann, wie es gelaufen ist, statt Glück zu wünschen.",
  ].join("\n");
}

/** The cheat-sheet extra of the first message after a pause. */
export function returnExtra(language: Lang, c: ReturnContext, userName: string): string {
  const close =
    language === "en"
      ? `${userName} is back after the pause. Greet briefly in a way that fits the pause, pick up where it makes sense, and answer the message.`
      : `${userName} meldet sich nach der Pause wieder. Begrüß kurz, passend zur Pause, knüpf an, wo es passt, und geh auf die Nachricht ein.`;
  return `${returnContextBlock(language, c)}\n${close}`;
}

/** What the pushed greeting is written from. */
interface GreetingPromptInput {
  language: Lang;
  /** The persona prompt (the same Lilo as in chat). */
  persona: string;
  userName: string;
  context: ReturnContext;
  /** A due 🧠 concern she may weave in. */
  concern?: string | undefined;
}

/** System prompt and the single user message of the greeting call. */
export function greetingPrompt(p: GreetingPromptInput): { system: string; user: string } {
  const en = p.language === "en";
  const rules = en
    ? [
        `${p.userName} has not written for a while. You speak up on your own with a short message to the phone: 2–3 sentences, warm, personal, no list.`,
        "Pick up something concrete from the last messages if it fits; invent nothing.",
        "Write only the message itself: no preamble, no quotation marks, no markers in square brackets.",
      ]
    : [
        `${p.userName} hat eine Weile nicht geschrieben. Du meldest dich von dir aus mit einer kurzen Nachricht aufs Handy: 2–3 Sätze, herzlich, persönlich, keine Aufzählung.`,
        "Knüpf an etwas Konkretes aus den letzten Nachrichten an, wenn es passt; erfinde nichts.",
        "Schreib nur die Nachricht selbst: ohne Vorrede, ohne Anführungszeichen, ohne Marker in eckigen Klammern.",
      ];
  const sections = [returnContextBlock(p.language, p.context)];
  if (p.concern) {
    sections.push(
      en
        ? `Something came to you while reflecting that you would like to tell or ask ${p.userName}:\n${p.concern}\nIf it fits the greeting, weave it in casually as your own thought; otherwise leave it for later.`
        : `Beim Nachdenken ist dir etwas gekommen, das du ${p.userName} sagen oder fragen möchtest:\n${p.concern}\nWenn es zur Begrüßung passt, web es beiläufig als deinen eigenen Gedanken ein; sonst heb es dir auf.`,
    );
  }
  sections.push(en ? "Now write your greeting." : "Schreib jetzt deine Begrüßung.");
  return { system: `${p.persona.trim()}\n\n${rules.join("\n")}`, user: sections.join("\n\n") };
}
