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
