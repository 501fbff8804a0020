import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTinyModel } from "../fixtures/tiny-model.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { isExtraction } from "../helpers/test-lilo.ts";
import { folderHashes, plainFindings } from "../helpers/folder-bytes.ts";
import { openDatabase } from "../../core/foundation/store/db.ts";
import { openConnection } from "../../core/foundation/store/db-open.ts";
import { dataKeyOf } from "../../core/foundation/store/data-key.ts";

const run = promisify(execFile);
/** The analyst's instruction (`lilo analysis`), in either language. */
const isAnalyst = (system: string | undefined) => /außenstehender Analyst|outside analyst/.test(system ?? "");
const KEY = "9d".repeat(32);
const PHRASE = "Quittengelee aus Wernigerode";

/**
 * From outside, through the real bot and the real `lilo`: after a
 * conversation that mentions a distinctive phrase, an analysis that quotes
 * it, a backup and an export,
 * no file of the data folder, the backup or the export holds the phrase or
 * starts as a plain SQLite file; with the key the CLI shows the memory,
 * without it or with a wrong one the bot and `lilo status` refuse naming
 * LILO_DATA_KEY and leave the files as they were; a plain install converted
 * by `lilo encrypt --apply` passes the same scan with its rows intact, its
 * saved analyses from an earlier Lilo's plain files included.
 */
describe("memory at rest, seen from outside", () => {
  let dir: string;
  let fake: FakeAnthropic;
  const env = (extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? "",
    HOME: dir,
    LILO_HOME: dir,
    LILO_DATA_DIR: join(dir, "data"),
    ANTHROPIC_API_KEY: "k",
    ANTHROPIC_BASE_URL: fake.baseURL,
    LILO_EMBEDDING_MODEL: "test/tiny-bert",
    LILO_EMBEDDING_MODEL_DIR: join(dir, "models"),
    LILO_EMBEDDING_OFFLINE: "true",
    LILO_DATA_KEY: KEY,
    ...extra,
  });
  const lilo = (args: string[], extra: Record<string, string> = {}) =>
    run(process.execPath, ["admin-cli/bin.js", ...args], { cwd: process.cwd(), env: env(extra) }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  /** The real bot in the terminal: says `text`, waits for the answer, stops with Ctrl-C; returns its exit code and output. */
  async function talk(text: string, extra: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, ["--import", "tsx", "main.ts"], { cwd: process.cwd(), env: env(extra), stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    child.stderr.on("data", (c) => (output += String(c)));
    const answered = new Promise<void>((resolve) => child.stdout.on("data", (c) => (output += String(c)).includes("Schön zu hören!") && resolve()));
    child.stdin.write(`${text}\n`);
    await Promise.race([answered, closed]);
    child.kill("SIGINT");
    return { code: await closed, output };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-atrest-"));
    await createTinyModel(join(dir, "models"), "test/tiny-bert", { dim: 16 });
    fake = await startFakeAnthropic();
    fake.replyAlways((b) =>
      isExtraction(b.system) ? '{"facts":[]}' : isAnalyst(b.system) ? `Sie antwortet auf „Ich koche ${PHRASE}.“ freundlich.` : "Schön zu hören!",
    );
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves no readable trace of a conversation in the data folder, the backup or the export; refuses without the key or with another", async () => {
    const said = await talk(`Ich koche ${PHRASE}.`);
    expect(said.code).toBe(0);
    // The saved analysis quotes the phrase: its report and its run's state are kept encrypted too.
    const analysed = await lilo(["analysis", "run"]);
    expect(analysed.code).toBe(0);
    expect(analysed.stdout).toContain(`„Ich koche ${PHRASE}.“`);
    expect(analysed.stdout).toContain("quotes: 1 verified, 0 not found");
    const exportFile = join(dir, "export.lilo");
    const [backup, exported] = await Promise.all([lilo(["backup"]), lilo(["export", "--messages", "--out", exportFile])]);
    expect([backup.code, exported.code]).toEqual([0, 0]);
    expect(plainFindings(dir, PHRASE)).toEqual([]);
    // The vector snapshot is kept beside the encrypted database, sealed (a start loads it instead of rebuilding).
    expect(
      readFileSync(join(dir, "data", "lilo.db.vectors"))
        .subarray(0, 8)
        .toString(),
    ).toBe("LILOVSX1");

    const before = folderHashes(join(dir, "data"));
    const [shown, noKey, wrongKey, bot] = await Promise.all([
      lilo(["export", "--messages", "--plain"]),
      lilo(["status"], { LILO_DATA_KEY: "" }),
      lilo(["status"], { LILO_DATA_KEY: "1f".repeat(32) }),
      talk("Hallo", { LILO_DATA_KEY: "1f".repeat(32) }),
    ]);
    // With the key, the CLI shows the memory; without it or with another, `lilo status` and the bot refuse.
    expect(shown.stdout).toContain(PHRASE);
    for (const refused of [noKey, wrongKey]) {
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("LILO_DATA_KEY");
    }
    expect(bot.code).not.toBe(0);
    expect(bot.output).toContain("LILO_DATA_KEY does not open");
    expect(folderHashes(join(dir, "data"))).toEqual(before);
  }, 90_000); // two bot starts and six CLI runs, each a real process

  it("encrypts a plain install with lilo encrypt --apply: the same scan passes and every row is kept", async () => {
    const data = join(dir, "plain-data");
    const db = openDatabase(join(data, "lilo.db"));
    const add = db.prepare("INSERT INTO notes (user_id, text, created_at, updated_at) VALUES ('owner', ?, '2026-01-01', '2026-01-01')");
    for (let i = 0; i < 25; i++) add.run(`${PHRASE} ${i}`);
    db.close();
    const backup = await lilo(["backup"], { LILO_DATA_DIR: data, LILO_DATA_KEY: "" });
    expect(backup.code).toBe(0);
    // Saved analyses as an earlier Lilo kept them: a plain report and an unfinished run's state with the transcript.
    const analyses = join(data, "analyses");
    mkdirSync(analyses);
    writeFileSync(join(analyses, "20261101-100000.txt"), `Lilo — Außenblick\nDatum: 2026-11-01 10:00\n\nSie erzählt vom ${PHRASE}.`);
    writeFileSync(join(analyses, "20261102-100000.json"), JSON.stringify({ id: "20261102-100000", chunks: [`[10:00] ${PHRASE}`] }));
    expect(plainFindings(data, PHRASE).length).toBeGreaterThan(0);

    const applied = await lilo(["encrypt", "--apply"], { LILO_DATA_DIR: data });
    expect(applied.code).toBe(0);
    expect(plainFindings(data, PHRASE)).toEqual([]);
    const report = await lilo(["analysis", "show", "20261101-100000"], { LILO_DATA_DIR: data });
    expect(report.stdout).toContain(`Sie erzählt vom ${PHRASE}.`);
    const encrypted = openConnection(join(data, "lilo.db"), dataKeyOf(KEY), { readonly: true });
    expect(encrypted.prepare("SELECT count(*) FROM notes").pluck().get()).toBe(25);
    encrypted.close();
    const status = await lilo(["status"], { LILO_DATA_DIR: data });
    expect(status.code).toBe(0);
    expect(readFileSync(join(data, "lilo.db")).subarray(0, 15).toString("latin1")).not.toBe("SQLite format 3");
  }, 60_000); // four CLI runs, each a real process
});
