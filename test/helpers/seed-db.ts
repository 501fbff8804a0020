import type { Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";

/**
 * Runs `fn` on its own read-write connection to Lilo's SQLite file, for
 * setup no use case offers: history only a long-running Lilo would have (a
 * conversation summary, a conversation with a chosen start, a greeting from
 * weeks ago) or a crash's leftovers. Tests build core stores on `sql`;
 * Lilo's own handles stay private.
 */
export function seedDb<T>(lilo: Lilo, fn: (sql: Db) => T): T {
  const sql = openLiloDatabase(lilo.config);
  try {
    return fn(sql);
  } finally {
    sql.close();
  }
}
