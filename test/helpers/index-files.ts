import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { openDatabase, type Db } from "../../core/foundation/store/db.ts";

/**
 * A database file in a folder of its own for each test of the calling
 * `describe`, and every connection opened on it closed afterwards. Read
 * `file` and call `db()` inside a test or a later hook.
 */
export function indexFiles(prefix: string): { readonly file: string; readonly dir: string; db(): Db } {
  let dir: string | undefined;
  const dbs: Db[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const folder = () => {
    if (!dir) throw new Error("indexFiles() is read inside a test, after its beforeEach");
    return dir;
  };
  return {
    get dir() {
      return folder();
    },
    get file() {
      return join(folder(), "lilo.db");
    },
    db() {
      const db = openDatabase(join(folder(), "lilo.db"));
      dbs.push(db);
      return db;
    },
  };
}
