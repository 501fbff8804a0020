/**
 * transformers.js keeps its settings in one process-wide `env` object and
 * offers no per-call way to set the local model path. Each model therefore
 * writes its settings right before its own load, and since the library reads
 * them throughout a load (every file lookup), loads run one after another —
 * embedders and rerankers alike — so two differently configured models never
 * mix settings. Once loaded, a model no longer reads `env`.
 */
let envLock: Promise<unknown> = Promise.resolve();

/** Runs `load` after every earlier load has finished; a failure does not block the next one. */
export function loadInTurn<T>(load: () => Promise<T>): Promise<T> {
  const next = envLock.then(load);
  envLock = next.catch(() => undefined);
  return next;
}
