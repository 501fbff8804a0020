import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../core/foundation/store/db.ts";
import { openConnection, dbFileState } from "../../core/foundation/store/db-open.ts";
import { dataKeyOf } from "../../core/foundation/store/data-key.ts";
import { convertInstall, CONVERSION_PHASES } from "../../core/internal.ts";
import { loadConfig, systemClock } from "../../core/index.ts";
import { plainFindings } from "../helpers/folder-bytes.ts";

const KEY = "c3".repeat(32);
const PHRASE = "Leuchtturm von Hiddensee";
const NOTES = 40;
const dirs: string[] = [];

/**
 * A plain install from before encryption: the database with NOTES notes, a plain backup of it, a vector snapshot
 * file, and two saved analyses as an earlier Lilo kept them, a plain report and an unfinished run's state.
 */
function plainInstall(): string {
  const dir = mkdtempSync(join(tmpdir(), "lilo-encrypt-"));
  dirs.push(dir);
  const db = openDatabase(join(dir, "lilo.db"));
  const add = db.prepare("INSERT INTO notes (user_id, text, created_at, updated_at) VALUES ('owner', ?, '2026-01-01', '2026-01-01')");
  for (let i = 0; i < NOTES; i++) add.run(`${PHRASE} ${i}`);
  mkdirSync(join(dir, "backups"));
  db.prepare("VACUUM INTO ?").run(join(dir, "backups", "lilo-2026-01-01.db"));
  db.close();
  writeFileSync(join(dir, "lilo.db.vectors"), "LILOVEC plain snapshot");
  mkdirSync(join(dir, "analyses"));
  writeFileSync(join(dir, "analyses", "20261101-100000.txt"), `Lilo — Außenblick\nSie erzählt vom ${PHRASE}.`);
  writeFileSync(join(dir, "analyses", "20261102-100000.json"), JSON.stringify({ id: "20261102-100000", chunks: [`[10:00] ${PHRASE}`] }));
  return dir;
}

/** Rows of a table in a database file: opened plain or with the key, whichever it is now. */
function rowsIn(file: string, table = "notes"): number {
  const key = dbFileState(file) === "encrypted" ? dataKeyOf(KEY) : undefined;
  const db = openConnection(file, key, { fileMustExist: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Runs the conversion in a real process that kills itself (SIGKILL) as `phase` of the file ending in `fileEnd` begins. */
function killedAt(dir: string, phase: string, fileEnd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/encrypt-kill-child.ts", dir, phase, fileEnd], {
      cwd: process.cwd(),
      env: { ...process.env, LILO_DATA_KEY: KEY },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += String(d)));
    child.on("exit", (_code, signal) => (signal === "SIGKILL" ? resolve() : reject(new Error(`not killed at ${phase}: ${err}`))));
  });
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * `lilo encrypt --apply` killed with SIGKILL as each step of each file
 * begins: every database file is then the old plain one or the new
 * encrypted one, with all its rows, and a second run finishes the job with
 * no plain copy of her memory left behind.
 */
describe("lilo encrypt killed at every step", () => {
  // The analyses' phase is heard with their folder, every other with the file it converts.
  const cases = [
    ...CONVERSION_PHASES.map((phase) => ({ phase, file: phase === "analyses" ? "analyses" : "lilo.db" })),
    { phase: "replace", file: "lilo-2026-01-01.db" },
  ];

  it.each(cases)("loses nothing when killed at $phase of $file, and a run after it finishes", async ({ phase, file }) => {
    const dir = plainInstall();
    await killedAt(dir, phase, file);
    const files = [join(dir, "lilo.db"), join(dir, "backups", "lilo-2026-01-01.db")];
    for (const f of files) expect(rowsIn(f)).toBe(NOTES);

    convertInstall(loadConfig({ LILO_DATA_DIR: dir, LILO_DATA_KEY: KEY }), { kind: "encrypt" }, { apply: true, clock: systemClock });
    for (const f of files) {
      expect(dbFileState(f)).toBe("encrypted");
      expect(rowsIn(f)).toBe(NOTES);
    }
    expect(rowsIn(files[0]!, "analyses")).toBe(2);
    expect(existsSync(join(dir, "analyses"))).toBe(false);
    expect(plainFindings(dir, PHRASE)).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith(".converting") || f.includes(".vectors"))).toEqual([]);
    expect(existsSync(join(dir, "lilo.db.lock"))).toBe(false);
  });
});
