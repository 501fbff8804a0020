import { deserialize, serialize } from "node:v8";
import type { Lilo } from "../../../core/index.ts";
import { MatrixCryptoError } from "./crypto-error.ts";
import { createDatabase, idb, layoutOf, request, type Db, type Key, type StoreLayout } from "./idb.ts";

/*
 * Where the Matrix Rust crypto's IndexedDB store is kept: record by record in
 * Lilo's own database (lilo.deviceKeys), so it is as private as the memory,
 * in every `lilo backup`, and encrypted whenever the database is.
 *
 * Why this way, of the three that were weighed:
 * - The crypto library's own storage: its WebAssembly build knows IndexedDB
 *   only (its SQLite store is for native builds), and its passphrase option
 *   would need a second secret beside the database key.
 * - A full IndexedDB implementation on SQLite: the one there is
 *   (indexeddbshim) needs another SQLite binding and is far larger than the
 *   few calls the crypto makes.
 * - fake-indexeddb in memory, its object stores written incrementally into a
 *   table (chosen): the crypto sees the IndexedDB it was tested with, and
 *   after each of its operations only the records that changed are written,
 *   in one SQLite transaction, so a crash leaves the state before or after
 *   that operation.
 */

/** What a store's layout row holds: the database version and every object store's shape. */
interface Layout {
  format: 1;
  version: number;
  objectStores: StoreLayout[];
}

/** Object stores written to since the last save, per IndexedDB database (read-only transactions change nothing). */
const written = new Map<string, Set<string>>();
let watching = false;

/** Notes the object stores of every writing transaction, so a save reads only those. */
function watchWrites(): void {
  if (watching) return;
  watching = true;
  const proto = (globalThis as unknown as { IDBDatabase: { prototype: Db } }).IDBDatabase.prototype;
  const original = proto.transaction;
  proto.transaction = function (this: Db, names: string | string[], mode?: string, options?: unknown) {
    if (mode && mode !== "readonly") {
      const set = written.get(this.name) ?? new Set<string>();
      for (const n of typeof names === "string" ? [names] : names) set.add(n);
      written.set(this.name, set);
    }
    return original.call(this, names, mode, options);
  };
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

/**
 * One IndexedDB database kept in the key-store table under `storeName`:
 * `restore` recreates it from the table before the crypto opens it, `save`
 * writes what changed since the last save (new, changed and removed records
 * and the layout), compared against the bytes last written.
 */
export class IdbTable {
  /** Per object store: record key (serialized, hex) → the value's bytes as last written. */
  private saved = new Map<string, Map<string, Buffer>>();
  private layout = "";
  /** The first save after opening compares every object store (opening may create or upgrade them). */
  private everything = true;

  constructor(
    private readonly dbName: string,
    private readonly storeName: string,
    private readonly keys: Lilo["deviceKeys"],
  ) {
    watchWrites();
  }

  /** Recreates the database from the table; false when the table has no store of this name. A damaged store is an error. */
  async restore(): Promise<boolean> {
    const copy = this.keys.load(this.storeName);
    if (!copy) return false;
    try {
      const layout = JSON.parse(copy.layout) as Layout;
      if (layout.format !== 1 || !Array.isArray(layout.objectStores)) throw new Error("unknown layout");
      const byStore = new Map(layout.objectStores.map((s) => [s.name, [] as { key: Key; value: unknown }[]]));
      const saved = new Map(layout.objectStores.map((s) => [s.name, new Map<string, Buffer>()]));
      for (const r of copy.records) {
        const records = byStore.get(r.objectStore);
        if (!records) throw new Error(`a record of the unknown object store ${r.objectStore}`);
        records.push({ key: deserialize(r.key) as Key, value: deserialize(r.value) });
        saved.get(r.objectStore)!.set(hex(r.key), Buffer.from(r.value));
      }
      await createDatabase(
        this.dbName,
        layout.version,
        layout.objectStores.map((s) => ({ ...s, records: byStore.get(s.name)! })),
      );
      this.saved = saved;
      this.layout = copy.layout;
    } catch (err) {
      throw new MatrixCryptoError(`the Matrix crypto store ${this.storeName} cannot be read`, { cause: err });
    }
    written.delete(this.dbName);
    this.everything = true;
    return true;
  }

  /** Writes what changed since the last save, in one transaction; a failed write is tried again by the next save. */
  async save(): Promise<void> {
    const database = await request(idb().open(this.dbName));
    const dirty = written.get(this.dbName) ?? new Set<string>();
    written.delete(this.dbName);
    const everything = this.everything;
    try {
      const names = [...database.objectStoreNames];
      const read = everything ? names : names.filter((n) => dirty.has(n));
      const layouts: StoreLayout[] = [];
      const now = new Map<string, Map<string, { key: Buffer; value: Buffer }>>();
      const tx = names.length ? database.transaction(names, "readonly") : undefined;
      for (const name of names) layouts.push(layoutOf(name, tx!.objectStore(name)));
      for (const name of read) {
        const store = tx!.objectStore(name);
        const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
        now.set(name, new Map(keys.map((k, i) => [hex(serialize(k)), { key: serialize(k), value: serialize(values[i]) }])));
      }
      const changes = this.changes(names, now);
      const layout = JSON.stringify({ format: 1, version: database.version, objectStores: layouts } satisfies Layout);
      if (changes.length || layout !== this.layout) this.keys.save(this.storeName, layout, changes);
      this.layout = layout;
      for (const [name, records] of now) this.saved.set(name, new Map([...records].map(([k, r]) => [k, r.value])));
      for (const name of [...this.saved.keys()]) if (!names.includes(name)) this.saved.delete(name);
      this.everything = false;
    } catch (err) {
      const again = written.get(this.dbName) ?? new Set<string>();
      for (const n of dirty) again.add(n);
      written.set(this.dbName, again);
      throw new MatrixCryptoError(`the Matrix crypto store ${this.storeName} cannot be saved`, { cause: err });
    } finally {
      database.close();
    }
  }

  /** The record changes between what was last written and `now` (the object stores read), and the removal of dropped object stores. */
  private changes(names: string[], now: Map<string, Map<string, { key: Buffer; value: Buffer }>>) {
    const changes: { objectStore: string; key: Uint8Array; value: Uint8Array | null }[] = [];
    for (const [name, records] of now) {
      const before = this.saved.get(name) ?? new Map<string, Buffer>();
      for (const [k, r] of records) if (!before.get(k)?.equals(r.value)) changes.push({ objectStore: name, key: r.key, value: r.value });
      for (const k of before.keys()) if (!records.has(k)) changes.push({ objectStore: name, key: Buffer.from(k, "hex"), value: null });
    }
    for (const [name, before] of this.saved) {
      if (names.includes(name)) continue;
      for (const k of before.keys()) changes.push({ objectStore: name, key: Buffer.from(k, "hex"), value: null });
    }
    return changes;
  }
}
