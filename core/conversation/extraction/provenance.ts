/**
 * Guards against the seed's "Trödeltrupp" bug: a fact about the user whose
 * distinctive words come only from Lilo's answer was not said by the user.
 * A word counts when it is long enough to carry meaning; words are compared
 * by a short prefix so inflections ("Filme"/"Film") still match.
 */
const MIN_WORD = 5;
const PREFIX = 5;

function stems(text: string): Set<string> {
  const words =
    text
      .toLowerCase()
      .normalize("NFC")
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => w.length >= MIN_WORD).map((w) => w.slice(0, PREFIX)));
}

/**
 * Words of `fact` that appear in the assistant's answer but in none of the
 * user's texts. Non-empty means the fact leans on Lilo's words.
 */
export function wordsOnlyFromAssistant(fact: string, userTexts: string[], assistantText: string, ignore: string[] = []): string[] {
  const user = new Set(userTexts.flatMap((t) => [...stems(t)]));
  const assistant = stems(assistantText);
  const ignored = new Set(ignore.flatMap((t) => [...stems(t)]));
  const words = fact.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => {
    if (w.length < MIN_WORD) return false;
    const s = w.slice(0, PREFIX);
    return assistant.has(s) && !user.has(s) && !ignored.has(s);
  });
}
