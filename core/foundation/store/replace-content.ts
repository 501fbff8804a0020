import type { Db } from "./db-type.ts";
import type { DataKey } from "./data-key.ts";

interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

interface TableInfo {
  name: string;
  type: string;
  wr: number;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Replaces everything in `live`'s database with the content of the database
 * file `file` (opened with `key`, none for a plain file), in one transaction
 * on the live connection: SQLite's online backup cannot write into an
 * encrypted database from a connection without its key, so the schema and
 * rows are copied instead. Every connection, this one and others, then sees
 * the restored content; a crash leaves the old content or the new, never a
 * mix. Tables keep their rowids; the full-text indexes are copied with their
 * shadow tables; indexes, triggers and views are created after the rows, so
 * no trigger fires twice.
 */
export function replaceContent(live: Db, file: string, key: DataKey | undefined): void {
  const keyPragma = key?.pragmas[key.pragmas.length - 1]!.replace(/^key = /, "") ?? "''";
  live.prepare(`ATTACH DATABASE ? AS src KEY ${keyPragma}`).run(file);
  const fk = live.pragma("foreign_keys", { simple: true }) as number;
  live.pragma("foreign_keys = OFF");
  // The full-text indexes' shadow tables are written directly, which SQLite's defensive mode refuses.
  live.unsafeMode(true);
  try {
    live.exec("BEGIN IMMEDIATE");
    try {
      dropEverything(live);
      copyEverything(live);
      live.pragma(`main.user_version = ${live.pragma("src.user_version", { simple: true }) as number}`);
      live.exec("COMMIT");
    } catch (err) {
      live.exec("ROLLBACK");
      throw err;
    }
  } finally {
    live.unsafeMode(false);
    live.pragma(`foreign_keys = ${fk}`);
    live.exec("DETACH DATABASE src");
  }
}

function schema(db: Db, schemaName: string): SchemaRow[] {
  return db.prepare(`SELECT type, name, sql FROM ${schemaName}.sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY rowid`).all() as SchemaRow[];
}

function tables(db: Db, schemaName: string): Map<string, TableInfo> {
  const rows = db.prepare(`SELECT name, type, wr FROM pragma_table_list WHERE schema = ?`).all(schemaName) as TableInfo[];
  return new Map(rows.map((r) => [r.name, r]));
}

function dropEverything(db: Db): void {
  const objects = schema(db, "main");
  const kinds = tables(db, "main");
  for (const o of objects.filter((x) => x.type === "view" || x.type === "trigger")) db.exec(`DROP ${o.type.toUpperCase()} main.${q(o.name)}`);
  // Virtual tables first: dropping one drops its shadow tables.
  for (const o of objects.filter((x) => kinds.get(x.name)?.type === "virtual")) db.exec(`DROP TABLE main.${q(o.name)}`);
  for (const o of objects.filter((x) => kinds.get(x.name)?.type === "table")) db.exec(`DROP TABLE main.${q(o.name)}`);
  if (kinds.has("sqlite_sequence")) db.exec("DELETE FROM main.sqlite_sequence");
}

function copyEverything(db: Db): void {
  const objects = schema(db, "src");
  const kinds = tables(db, "src");
  const creates = (o: SchemaRow) => o.sql !== null && kinds.get(o.name)?.type !== "shadow";
  for (const o of objects.filter((x) => x.type === "table" && creates(x))) db.exec(o.sql!);
  for (const o of objects.filter((x) => x.type === "table" && kinds.get(x.name)?.type !== "virtual")) {
    const shadow = kinds.get(o.name)?.type === "shadow";
    if (shadow) db.exec(`DELETE FROM main.${q(o.name)}`);
    const cols = (db.prepare(`SELECT name FROM pragma_table_xinfo(?, 'src') WHERE hidden = 0`).all(o.name) as { name: string }[]).map((c) => q(c.name));
    const rowid = kinds.get(o.name)?.wr ? [] : ["rowid"];
    const list = [...rowid, ...cols].join(", ");
    db.exec(`INSERT INTO main.${q(o.name)} (${list}) SELECT ${list} FROM src.${q(o.name)}`);
  }
  if (kinds.has("sqlite_sequence")) db.exec("INSERT INTO main.sqlite_sequence SELECT * FROM src.sqlite_sequence");
  for (const o of objects.filter((x) => x.type !== "table" && x.sql !== null)) db.exec(o.sql!);
}
