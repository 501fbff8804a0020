/**
 * Codes of errors raised as a plain `LiloError` (no class of their own):
 * callers tell them apart by code only.
 */
type GeneralErrorCode =
  /** A caller passed something unusable (empty text, a bad date, an undo that cannot be done). */
  | "invalid-input"
  /** A rule of the program was broken (a missing handler, a row that should have been written). */
  | "internal"
  /** The database could not be opened or is newer than this Lilo. */
  | "database"
  /** Another process holds the writer lock. */
  | "locked"
  /** `lilo import` refused or failed. */
  | "import"
  /** `lilo restore` refused or failed. */
  | "restore"
  /** A diary entry could not be stored. */
  | "diary"
  /** The chat model answered with nothing to show. */
  | "empty-answer"
  /** A push target is no private chat (any more): withheld. */
  | "not-private"
  /** A voice note or photo could not be downloaded from the platform. */
  | "media-download"
  /** A voice note or photo is larger than allowed. */
  | "media-too-large"
  /** A day or month budget is spent: the background call was not made. */
  | "budget-spent"
  /** The reranking model (cross-encoder) could not be loaded or run. */
  | "reranker"
  /** The word lexicon (WordNet) could not be read. */
  | "lexicon"
  /** Lilo is stopping: a model call still running after the shutdown grace time was cancelled. */
  | "cancelled";

/**
 * Codes owned by an error class (errors.ts): `ConfigError` is always
 * "config", `ProviderError` "provider", and so on.
 */
type ClassErrorCode = "config" | "provider" | "embedder" | "vector-index" | "not-found" | "lookup" | "analysis";

/**
 * Every code a Lilo error can carry. Kept apart from the classes so the
 * text table (error-texts.ts) can name them without importing the classes.
 */
export type ErrorCode = GeneralErrorCode | ClassErrorCode;
