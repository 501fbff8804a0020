import "fake-indexeddb/auto";

/*
 * The Matrix Rust crypto keeps its store in IndexedDB. Node has none, so
 * `fake-indexeddb` (pure JS, in memory) stands in; idb-table.ts makes it
 * durable in Lilo's database. These are the few IndexedDB types used (the
 * project compiles without the DOM library).
 */
export type Key = string | number | Date | ArrayBufferView | ArrayBuffer | Key[];
export interface Req<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
export interface OpenReq extends Req<Db> {
  onupgradeneeded: (() => void) | null;
}
interface Index {
  keyPath: string | string[];
  unique: boolean;
  multiEntry: boolean;
}
export interface Store {
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexNames: Iterable<string>;
  index(name: string): Index;
  getAll(): Req<unknown[]>;
  getAllKeys(): Req<Key[]>;
  put(value: unknown, key?: Key): Req<Key>;
  delete(key: Key): Req<undefined>;
  createIndex(name: string, keyPath: string | string[], options: { unique: boolean; multiEntry: boolean }): Index;
}
export interface Tx {
  objectStore(name: string): Store;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  error: unknown;
}
export interface Db {
  name: string;
  version: number;
  objectStoreNames: Iterable<string>;
  transaction(names: string | string[], mode?: string, options?: unknown): Tx;
  createObjectStore(name: string, options: { keyPath: string | string[] | null; autoIncrement: boolean }): Store;
  close(): void;
}
interface Factory {
  databases(): Promise<{ name?: string }[]>;
  open(name: string, version?: number): OpenReq;
  deleteDatabase(name: string): Req<undefined>;
}

/** An object store's shape: what recreating it needs besides its records. */
export interface StoreLayout {
  name: string;
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexes: { name: string; keyPath: string | string[]; unique: boolean; multiEntry: boolean }[];
}

/** The global `fake-indexeddb/auto` installs, where the Rust crypto finds it too. */
export const idb = (): Factory => (globalThis as unknown as { indexedDB: Factory }).indexedDB;

export const request = <T>(req: Req<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error instanceof Error ? req.error : new Error("IndexedDB request failed"));
  });

export const completed = (tx: Tx): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error instanceof Error ? tx.error : new Error("IndexedDB transaction failed"));
  });

/** Removes the in-process copy of `name`, so the next open reads only what is restored. */
export async function dropDatabase(name: string): Promise<void> {
  await request(idb().deleteDatabase(name));
}

/** An object store's layout, read from an open store. */
export function layoutOf(name: string, store: Store): StoreLayout {
  const indexes = [...store.indexNames].map((i) => {
    const index = store.index(i);
    return { name: i, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
  });
  return { name, keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes };
}

/**
 * Creates database `name` (replacing any in-process copy) at `version` with
 * the given object stores and fills each with its records in one transaction.
 */
export async function createDatabase(name: string, version: number, stores: (StoreLayout & { records: { key: Key; value: unknown }[] })[]): Promise<void> {
  await dropDatabase(name);
  const open = idb().open(name, version);
  open.onupgradeneeded = () => {
    const database = open.result;
    for (const s of stores) {
      const store = database.createObjectStore(s.name, { keyPath: s.keyPath, autoIncrement: s.autoIncrement });
      for (const i of s.indexes) store.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
    }
  };
  const database = await request(open);
  try {
    if (!stores.length) return;
    const tx = database.transaction(
      stores.map((s) => s.name),
      "readwrite",
    );
    for (const s of stores) {
      const store = tx.objectStore(s.name);
      // Stores with a key path take the key from the value; the others need it given.
      for (const r of s.records) void (s.keyPath === null ? store.put(r.value, r.key) : store.put(r.value));
    }
    await completed(tx);
  } finally {
    database.close();
  }
}
