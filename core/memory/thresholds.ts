/**
 * Similarity thresholds belong to the embedder that made the vectors, not
 * to a configured name: a cosine of 0.82 means "same fact" for MiniLM and
 * nothing in particular for another model. The table is keyed by the
 * identity the `Embedder` port reports; an unknown embedder gets the
 * conservative default — duplicates only as exact text, never by meaning.
 */

/** The floors one embedder's cosines are judged by. */
export interface EmbedderThresholds {
  /** Notes found by meaning alone must reach this cosine to reach the sheet. */
  notesMinScore: number;
  /** Cosine from which a new note counts as a duplicate; undefined = exact text only. */
  dedupMinScore: number | undefined;
}

/** Known embedders by `Embedder.id`. The multilingual model scores paraphrases higher, hence its higher floors. */
const EMBEDDER_THRESHOLDS: Readonly<Record<string, EmbedderThresholds>> = {
  "Xenova/all-MiniLM-L6-v2": { notesMinScore: 0.3, dedupMinScore: 0.82 },
  "Xenova/paraphrase-multilingual-MiniLM-L12-v2": { notesMinScore: 0.4, dedupMinScore: 0.88 },
};

/** For an embedder nobody measured: keep every note that is not the exact same text. */
const UNKNOWN_EMBEDDER_THRESHOLDS: EmbedderThresholds = { notesMinScore: 0.3, dedupMinScore: undefined };

/** The thresholds for this embedder, explicit settings (LILO_NOTES_MIN_SCORE, LILO_DEDUP_MIN_SCORE) winning. */
export function thresholdsFor(
  embedderId: string,
  overrides: { notesMinScore?: number | undefined; dedupMinScore?: number | undefined } = {},
): EmbedderThresholds {
  const known = EMBEDDER_THRESHOLDS[embedderId] ?? UNKNOWN_EMBEDDER_THRESHOLDS;
  return {
    notesMinScore: overrides.notesMinScore ?? known.notesMinScore,
    dedupMinScore: overrides.dedupMinScore ?? known.dedupMinScore,
  };
}
