/**
 * What every platform adapter is, apart from adapters/index.ts: that file
 * imports each adapter to list them, so an adapter that named its own shape
 * there would import it back.
 */
import type { Lilo, Logger } from "../core/index.ts";

/**
 * A running adapter; `stop` ends polling / syncing (no new updates), waits
 * for the turns in flight however long they take (the app's stop cancels
 * them after its grace time) and unregisters its push transport.
 */
export interface RunningAdapter {
  name: string;
  stop(): Promise<void>;
}

/** Starts one platform adapter when its configuration is present; undefined when it is not configured. */
export type AdapterStarter = (lilo: Lilo, logger: Logger) => Promise<RunningAdapter | undefined>;
