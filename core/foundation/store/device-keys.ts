import type { Db } from "./db.ts";
import { writeTransaction } from "./tx.ts";

/** One record of a key store: which object store it belongs to, its key and its value, both serialized by the adapter. */
export interface KeyRecord {
  objectStore: string;
  key: Uint8Array;
  value: Uint8Array;
}

/** A change to one record: a new value, or `null` to remove it. */
export interface KeyRecordChange {
  objectStore: string;
  key: Uint8Array;
  value: Uint8Array | null;
}

/** A whole key store: its layout (opaque JSON the adapter writes) and every record. */
export interface KeyStoreCopy {
  layout: string;
  updatedAt: string;
  records: KeyRecord[];
}

type RawRecord = { object_store: string; key: Buffer; value: Buffer };

/**
 * The key stores of end-to-end encryption devices (tables `device_key_stores`
 * and `device_key_records`): what a device's crypto keeps (its identity keys,
 * sessions, room keys) as opaque records, so it lives in the one database —
 * private, in every backup, encrypted whenever the database is.
 */
export class DeviceKeysStore {
  constructor(private readonly db: Db) {}

  /** The names of the stores kept. */
  names(): string[] {
    return (this.db.prepare(`SELECT name FROM device_key_stores ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
  }

  /** A store's layout and records, or undefined when there is no store of that name. */
  load(name: string): KeyStoreCopy | undefined {
    const head = this.db.prepare(`SELECT layout, updated_at FROM device_key_stores WHERE name = ?`).get(name) as
      { layout: string; updated_at: string } | undefined;
    if (!head) return undefined;
    const rows = this.db.prepare(`SELECT object_store, key, value FROM device_key_records WHERE store_name = ?`).all(name) as RawRecord[];
    return { layout: head.layout, updatedAt: head.updated_at, records: rows.map((r) => ({ objectStore: r.object_store, key: r.key, value: r.value })) };
  }

  /** Writes a store's layout and the changed records in one transaction (a store that does not exist yet is created). */
  save(name: string, layout: string, changes: KeyRecordChange[], now: string): void {
    const head = this.db.prepare(
      `INSERT INTO device_key_stores (name, layout, updated_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET layout = excluded.layout, updated_at = excluded.updated_at`,
    );
    const put = this.db.prepare(`INSERT OR REPLACE INTO device_key_records (store_name, object_store, key, value) VALUES (?, ?, ?, ?)`);
    const remove = this.db.prepare(`DELETE FROM device_key_records WHERE store_name = ? AND object_store = ? AND key = ?`);
    writeTransaction(this.db, () => {
      head.run(name, layout, now);
      for (const c of changes) {
        if (c.value) put.run(name, c.objectStore, c.key, c.value);
        else remove.run(name, c.objectStore, c.key);
      }
    });
  }

  /** Replaces a store with `copy` as a whole (records that are not in the copy are removed). */
  replace(name: string, copy: KeyStoreCopy): void {
    writeTransaction(this.db, () => {
      this.remove(name);
      this.db.prepare(`INSERT INTO device_key_stores (name, layout, updated_at) VALUES (?, ?, ?)`).run(name, copy.layout, copy.updatedAt);
      const put = this.db.prepare(`INSERT INTO device_key_records (store_name, object_store, key, value) VALUES (?, ?, ?, ?)`);
      for (const r of copy.records) put.run(name, r.objectStore, r.key, r.value);
    });
  }

  /** Renames a store (its records follow); false when there is none of that name. */
  rename(name: string, to: string): boolean {
    return this.db.prepare(`UPDATE device_key_stores SET name = ? WHERE name = ?`).run(to, name).changes === 1;
  }

  /** Removes a store with its records. */
  remove(name: string): void {
    this.db.prepare(`DELETE FROM device_key_stores WHERE name = ?`).run(name);
  }
}
