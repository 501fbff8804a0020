import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../core/foundation/store/db.ts";
import { openConnection } from "../../core/foundation/store/db-open.ts";
import { dataKeyOf } from "../../core/foundation/store/data-key.ts";
import { convertInstall } from "../../core/internal.ts";
import { systemClock } from "../../core/index.ts";

const OLD = "4e".repeat(32);
const NEW = "b1".repeat(32);

describe("lilo rekey", () => {
  let dir: string;
  const config = (key: string) => ({ dbPath: join(dir, "lilo.db"), dataDir: dir, analysis: { dir: join(dir, "analyses") }, dataKey: key });
  const notes = (file: string, key: string, table = "notes") => {
    const db = openConnection(file, dataKeyOf(key), { fileMustExist: true });
    try {
      return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-rekey-"));
    const db = openDatabase(join(dir, "lilo.db"), dataKeyOf(OLD));
    db.prepare("INSERT INTO notes (user_id, text, created_at, updated_at) VALUES ('owner', 'Tee', '2026-01-01', '2026-01-01')").run();
    mkdirSync(join(dir, "backups"));
    db.prepare("VACUUM INTO ?").run(join(dir, "backups", "lilo-1.db"));
    db.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("moves the database and every backup to the new key; the old one no longer opens them", () => {
    const files = [join(dir, "lilo.db"), join(dir, "backups", "lilo-1.db")];
    const dry = convertInstall(config(OLD), { kind: "rekey", newKey: NEW }, { apply: false, clock: systemClock });
    expect(dry.map((i) => i.action)).toEqual(["convert", "convert"]);
    expect(notes(files[0]!, OLD)).toBe(1); // a dry run changes nothing
    // An earlier Lilo's plain analysis file goes into the database (opened with the old key) before it is converted.
    const analyses = join(dir, "analyses");
    mkdirSync(analyses);
    writeFileSync(join(analyses, "20261101-100000.txt"), "Bericht");

    convertInstall(config(OLD), { kind: "rekey", newKey: NEW }, { apply: true, clock: systemClock });
    for (const f of files) {
      expect(notes(f, NEW)).toBe(1);
      expect(() => notes(f, OLD)).toThrow(/LILO_DATA_KEY does not open/);
    }
    expect(notes(files[0]!, NEW, "analyses")).toBe(1);
    expect(existsSync(analyses)).toBe(false);
    // A second run (say, after a crash) finds everything done, and opens the database with the new key for a file left.
    mkdirSync(analyses);
    writeFileSync(join(analyses, "20261102-100000.txt"), "Bericht");
    expect(convertInstall(config(OLD), { kind: "rekey", newKey: NEW }, { apply: true, clock: systemClock }).map((i) => i.action)).toEqual(["done", "done"]);
    expect(notes(files[0]!, NEW, "analyses")).toBe(2);
  });

  it("refuses a file that neither key opens, changing nothing", () => {
    expect(() => convertInstall(config("77".repeat(32)), { kind: "rekey", newKey: NEW }, { apply: true, clock: systemClock })).toThrow(
      /neither the old key \(LILO_DATA_KEY\) nor the new one opens/,
    );
    expect(notes(join(dir, "lilo.db"), OLD)).toBe(1);
  });
});
