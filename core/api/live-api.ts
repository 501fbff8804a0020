/**
 * Settings changed at run time (`lilo settings set`) as a running process
 * follows them: another process writes the settings table, `refresh` picks
 * the change up and tells the listeners (the scheduler reschedules).
 * Reading and changing them is `Lilo.settings`.
 */
export interface LiveApi {
  /** Calls `listener` with the keys whose value changed, after every change. Returns the unsubscribe. */
  onChange(listener: (keys: string[]) => void): () => void;
  /** Re-reads the stored overrides (cheap; polled by the running bot) and applies the changed ones; returns the changed keys. */
  refresh(): string[];
}
