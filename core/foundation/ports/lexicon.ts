/**
 * A lexicon of concepts: which words name kinds or instances of a category
 * ("martial art" → taekwondo, judo; "country" → Spain, England). The chat-log
 * search uses it for questions about a category that the evidence answers
 * with instances, sharing no word with the question (concept-matches.ts).
 * One language per lexicon: the WordNet one is English; a German one (an
 * OdeNet file) could sit behind the same port.
 */
export interface Lexicon {
  /** The lexicon in use (for logs and the benchmark). */
  readonly id: string;
  /** Loads the lexicon's files (idempotent; later calls share the first load). A failure rejects. */
  load(): Promise<void>;
  /**
   * Single words (lowercase) naming kinds or instances of what `phrase`
   * names, up to `depth` levels below it, nearer levels first, at most
   * `max`; `undefined` while the lexicon is not loaded, `[]` when it does
   * not know the phrase. `phrase` may be inflected ("martial arts").
   */
  narrower(phrase: string, limits: { depth: number; max: number }): string[] | undefined;
}
