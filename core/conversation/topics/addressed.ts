import type { Topic } from "../../foundation/store/topics.ts";
import { meaningfulWords } from "../../foundation/util/meaningful-words.ts";

/** How many meaningful words of a topic must recur in Lilo's answer, per kind. */
interface AddressedWords {
  followup: number;
  concern: number;
}

/** What the addressed-check found. */
interface AddressedCheck {
  addressed: boolean;
  /** The topic's meaningful words that occur in the answer. */
  found: string[];
  /** How many were needed. */
  needed: number;
}

/**
 * The addressed-check after a reply (docs/spec.md §9): short and filler words drop
 * out of the topic; of the rest, a 🧠 concern needs two in the answer (one
 * word of a whole sentence recurs by chance too often), a normal topic one.
 *
 * Whole words, unlike the seed's substring test: "Kino" in the topic is not
 * found in "Kinoabend". The price is that inflected forms ("Termin" /
 * "Termins") do not count either; the topic then simply stays open and comes
 * back on the next message. A topic without any meaningful word has nothing
 * to check and counts as addressed once it was on the sheet, so it cannot
 * block the topics behind it for ever.
 */
export function checkAddressed(topic: Pick<Topic, "text" | "kind">, answer: string, words: AddressedWords): AddressedCheck {
  const wanted = meaningfulWords(topic.text);
  const needed = Math.min(words[topic.kind], wanted.size);
  const inAnswer = meaningfulWords(answer);
  const found = [...wanted].filter((w) => inAnswer.has(w));
  return { addressed: found.length >= needed, found, needed };
}
