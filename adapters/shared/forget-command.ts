import { LiloError, describeError, type Lilo, type Question } from "../../core/index.ts";
import { WHY_TEXTS } from "./why-texts.ts";

/** What `/forget <arg>` leads to: the old note-id path, a question to ask, or a text. */
export type ForgetCommand = { kind: "note"; id: number } | { kind: "ask"; question: Question } | { kind: "say"; text: string };

/**
 * `/forget <arg>` on every platform: a number is a note id (as
 * before); a reference from /why ("N12", "M305") forgets that item
 * everywhere; anything else are words to forget everywhere. Both of the
 * latter find first and ask the user's yes with the list.
 */
export async function forgetCommand(lilo: Lilo, userId: string, arg: string): Promise<ForgetCommand> {
  const language = lilo.config.persona.language;
  const text = arg.trim();
  if (!text) return { kind: "say", text: WHY_TEXTS[language].forgetUsage };
  const id = /^#?(\d+)$/.exec(text);
  if (id) return { kind: "note", id: Number(id[1]) };
  let plan;
  try {
    plan = /^[A-Za-z]\d+$/.test(text) ? await lilo.forget.findItem(userId, text) : await lilo.forget.find(userId, text);
  } catch (err) {
    // Words that mean nothing (a letter, a stop word) are refused with a sentence in the persona's language.
    if (err instanceof LiloError && err.code === "invalid-input") return { kind: "say", text: describeError(err, language) };
    throw err;
  }
  if (!plan?.items.length) return { kind: "say", text: lilo.forget.nothingFound };
  return { kind: "ask", question: lilo.forget.ask(plan) };
}
