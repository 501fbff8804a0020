import type { Lilo } from "../../core/index.ts";
import { openConnection } from "../../core/foundation/store/db-open.ts";
import { configuredDataKey } from "../../core/foundation/store/data-key.ts";
import type { Db } from "../../core/foundation/store/db.ts";

/**
 * Reads Lilo's SQLite file the way an outside inspector would: each query on
 * its own read-only connection to `config.dbPath`, which sees every
 * committed write. For tests that check raw rows no use case shows.
 */
export function readDb(lilo: Lilo): { all(sql: string, ...params: unknown[]): unknown[]; get(sql: string, ...params: unknown[]): unknown } {
  const run = <T>(fn: (db: Db) => T): T => {
    const db = openConnection(lilo.config.dbPath, configuredDataKey(lilo.config), { readonly: true, fileMustExist: true });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  return {
    all: (sql, ...params) => run((db) => db.prepare(sql).all(...params)),
    get: (sql, ...params) => run((db) => db.prepare(sql).get(...params)),
  };
}
