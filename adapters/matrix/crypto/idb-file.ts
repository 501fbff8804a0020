import "fake-indexeddb/auto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { deserialize, serialize } from "node:v8";
import { PRIVATE_FILE_MODE } from "../../../core/internal.ts";
import { MatrixCryptoError } from "./crypto-error.ts";

/**
 * The Matrix Rust crypto keeps its store in IndexedDB. Node has none, so
 * `fake-indexeddb` (pure JS, in memory) stands in, and this file makes it
 * durable: `saveDatabase` writes one database — every object store's schema
 * and records, read in one transaction, so the copy is consistent — to a
 * file (structured-clone encoding via `node:v8`, written to a temp file and
 * renamed, 0600); `restoreDatabase` puts it back before the OlmMachine
 * opens it.
 */

/* The few IndexedDB types used here (the project compiles without the DOM library). */
type Key = string | number | Date | ArrayBufferView | ArrayBuffer | Key[];
interface Req<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface OpenReq extends Req<Db> {
  onupgradeneeded: (() => void) | null;
}
interface Index {
  keyPath: string | string[];
  unique: boolean;
  multiEntry: boolean;
}
interface Store {
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexNames: Iterable<string>;
  index(name: string): Index;
  getAll(): Req<unknown[]>;
  getAllKeys(): Req<Key[]>;
  put(value: unknown, key?: Key): Req<Key>;
  createIndex(name: string, keyPath: string | string[], options: { unique: boolean; multiEntry: boolean }): Index;
}
interface Tx {
  objectStore(name: string): Store;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  error: unknown;
}
interface Db {
  version: number;
  objectStoreNames: Iterable<string>;
  transaction(names: string[], mode: "readonly" | "readwrite"): Tx;
  createObjectStore(name: string, options: { keyPath: string | string[] | null; autoIncrement: boolean }): Store;
  close(): void;
}
interface Factory {
  databases(): Promise<{ name?: string }[]>;
  open(name: string, version?: number): OpenReq;
  deleteDatabase(name: string): Req<undefined>;
}
/** The global `fake-indexeddb/auto` installs, where the Rust crypto finds it too. */
const idb = (): Factory => (globalThis as unknown as { indexedDB: Factory }).indexedDB;

interface SavedIndex {
  name: string;
  keyPath: string | string[];
  unique: boolean;
  multiEntry: boolean;
}

interface SavedStore {
  name: string;
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexes: SavedIndex[];
  keys: Key[];
  values: unknown[];
}

/** What a store file holds: the database's name, version and stores. */
interface SavedDatabase {
  format: 1;
  name: string;
  version: number;
  objectStores: SavedStore[];
}

const request = <T>(req: Req<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error instanceof Error ? req.error : new Error("IndexedDB request failed"));
  });

/** True when IndexedDB holds a database called `name` (in this process). */
export async function databaseExists(name: string): Promise<boolean> {
  return (await idb().databases()).some((d) => d.name === name);
}

/** Removes the in-process copy of `name`, so the next open reads only what a file restores. */
export async function dropDatabase(name: string): Promise<void> {
  await request(idb().deleteDatabase(name));
}

/** Writes database `name` to `file` (atomically, 0600). A database that does not exist is an error. */
export async function saveDatabase(name: string, file: string): Promise<void> {
  if (!(await databaseExists(name))) throw new MatrixCryptoError(`no crypto database ${name} to save`);
  const database = await request(idb().open(name));
  try {
    const names = [...database.objectStoreNames];
    const saved: SavedDatabase = { format: 1, name, version: database.version, objectStores: [] };
    if (names.length) {
      const tx = database.transaction(names, "readonly");
      for (const storeName of names) {
        const store = tx.objectStore(storeName);
        const indexes = [...store.indexNames].map((i) => {
          const index = store.index(i);
          return { name: i, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
        });
        const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
        saved.objectStores.push({ name: storeName, keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes, keys, values });
      }
    }
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, serialize(saved), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, file);
  } finally {
    database.close();
  }
}

/**
 * Recreates database `name` from `file` (replacing any in-process copy).
 * Returns false when there is no file. A damaged file throws a LiloError.
 */
export async function restoreDatabase(name: string, file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  let saved: SavedDatabase;
  try {
    saved = deserialize(readFileSync(file)) as SavedDatabase;
  } catch (err) {
    throw new MatrixCryptoError(`the Matrix crypto store ${file} cannot be read`, { cause: err });
  }
  if (saved.format !== 1 || saved.name !== name) throw new MatrixCryptoError(`${file} is not a Matrix crypto store for ${name}`);
  await dropDatabase(name);
  const open = idb().open(name, saved.version);
  open.onupgradeneeded = () => {
    const database = open.result;
    for (const s of saved.objectStores) {
      const store = database.createObjectStore(s.name, { keyPath: s.keyPath, autoIncrement: s.autoIncrement });
      for (const i of s.indexes) store.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
    }
  };
  const database = await request(open);
  try {
    if (saved.objectStores.length) {
      const tx = database.transaction(
        saved.objectStores.map((s) => s.name),
        "readwrite",
      );
      for (const s of saved.objectStores) {
        const store = tx.objectStore(s.name);
        // Stores with a key path take the key from the value; the others need it given.
        s.values.forEach((value, i) => (s.keyPath === null ? store.put(value, s.keys[i]) : store.put(value)));
      }
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error instanceof Error ? tx.error : new Error("IndexedDB restore failed"));
      });
    }
  } finally {
    database.close();
  }
  return true;
}
