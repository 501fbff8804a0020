import type { Statement } from "better-sqlite3-multiple-ciphers";
import type { Db } from "./db.ts";

const cache = new WeakMap<Db, Map<string, Statement>>();

/**
 * A statement prepared once per connection and reused: for the reads every
 * turn makes (search, rows by id, profile, rules), where preparing again
 * each time costs more than running the query. Only for `get`/`all`/`run`:
 * a statement still being iterated cannot be run again.
 */
export function prepared(db: Db, sql: string): Statement {
  let byDb = cache.get(db);
  if (!byDb) cache.set(db, (byDb = new Map()));
  let stmt = byDb.get(sql);
  if (!stmt) byDb.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
