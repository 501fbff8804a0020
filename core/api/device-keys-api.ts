import type { Clock } from "../foundation/ports/clock.ts";
import type { DeviceKeysStore, KeyRecordChange, KeyStoreCopy } from "../foundation/store/device-keys.ts";

/**
 * The key stores of Lilo's end-to-end encryption devices (the Matrix
 * adapter's crypto), kept record by record in the database: never a plain
 * file beside it, in every `lilo backup`, encrypted whenever the database is.
 * The records are opaque to the core; the adapter serializes them.
 */
export interface DeviceKeysApi {
  /** The names of the stores kept. */
  names(): string[];
  /** A store's layout and records, or undefined when there is none of that name. */
  load(name: string): KeyStoreCopy | undefined;
  /** Writes a store's layout and changed records (a value of `null` removes one) in one transaction. */
  save(name: string, layout: string, changes: KeyRecordChange[]): void;
  /** Keeps a store that cannot be read under another name (`<name>.damaged-<time>`), which it returns, so nothing is lost. */
  setAside(name: string): string;
  /** Removes a store with its records. */
  remove(name: string): void;
}

/** Builds the key-store use cases over the store; times come from the clock. */
export function deviceKeysApi(store: DeviceKeysStore, clock: Clock): DeviceKeysApi {
  return {
    names: () => store.names(),
    load: (name) => store.load(name),
    save: (name, layout, changes) => store.save(name, layout, changes, clock.now().toISOString()),
    setAside: (name) => {
      const aside = `${name}.damaged-${clock.now().toISOString()}`;
      store.rename(name, aside);
      return aside;
    },
    remove: (name) => store.remove(name),
  };
}
