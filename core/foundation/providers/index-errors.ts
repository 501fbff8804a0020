import { VectorIndexError } from "../errors.ts";

/** Runs `fn`; any failure that is not already a VectorIndexError becomes one ("Cannot <what>: …") with the cause. */
export function asIndexError<T>(fn: () => T, what: string): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof VectorIndexError) throw err;
    throw new VectorIndexError(`Cannot ${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** What to run when the index does not fit the embedder: the command that rebuilds it, not its dry run. */
export const REINDEX_ADVICE =
  "Run `lilo reindex --apply` to embed every memory again with the current model (`lilo reindex` alone only shows what it would do).";
