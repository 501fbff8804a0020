import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3-multiple-ciphers";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CrashWorld, TG_CHAT, tokens, until, type Proc } from "./world.ts";

/**
 * The writer lock belongs to the database file, and a reindex killed with
 * SIGKILL is finished by the next bot start: the real bot process and the
 * real `lilo` CLI, each in its own process.
 */
describe("locks by database, self-healing reindex", () => {
  let w: CrashWorld;
  let bot: Proc | undefined;
  const others: string[] = [];
  const otherDir = () => {
    const d = mkdtempSync(join(tmpdir(), "lilo-other-"));
    others.push(d);
    return d;
  };
  const dbPath = () => join(w.dir, "lilo.db");
  const count = (sql: string) => w.query<{ n: number }>(sql)[0]!.n;

  beforeAll(async () => {
    w = await CrashWorld.create();
    bot = await w.startBot();
  }, 30_000);
  afterAll(async () => {
    if (bot) await w.kill(bot);
    await w?.close();
    for (const d of others) rmSync(d, { recursive: true, force: true });
  });

  it("the bot's lock guards the live database itself, only while the bot lives: restore refused through another data folder or a symlink, allowed after a crash", async () => {
    const backup = w.cli(["backup"]);
    expect(await backup.exited).toBe(0);
    const file = /backup: (.+\.db)/.exec(backup.output())![1]!;
    // Answered after the backup: a restore under the running bot would lose them.
    const sent = tokens(500, 4);
    for (const t of sent) w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: `Nachricht ${t}` });
    await until(
      () => w.answered(sent),
      15_000,
      () => bot!.output(),
    );

    const other = w.cli(["restore", file, "--apply"], { LILO_DATA_DIR: otherDir(), LILO_DB_PATH: dbPath() });
    expect(await other.exited).toBe(1);
    expect(other.output()).toMatch(/Lilo is running \(bot, pid \d+/);

    const linkDir = otherDir();
    symlinkSync(dbPath(), join(linkDir, "linked.db"));
    const linked = w.cli(["restore", file, "--apply"], { LILO_DATA_DIR: linkDir, LILO_DB_PATH: join(linkDir, "linked.db") });
    expect(await linked.exited).toBe(1);
    expect(linked.output()).toMatch(/Lilo is running \(bot, pid \d+/);

    const stored = w.storedTokens();
    expect(sent.map((t) => stored.get(t))).toEqual([1, 1, 1, 1]);

    // kill -9 leaves the lock file beside the database; it names a dead process, so it no longer blocks.
    await w.kill(bot!);
    bot = undefined;
    expect(existsSync(`${dbPath()}.lock`)).toBe(true);
    const after = w.cli(["restore", file, "--apply"], { LILO_DATA_DIR: otherDir(), LILO_DB_PATH: dbPath() });
    expect(await after.exited).toBe(0);
    expect(w.storedTokens().has(sent[0]!)).toBe(false);
  }, 60_000);

  it("kill -9 during `lilo reindex --apply`: the next bot start finishes it in the background, every note gets its vector without doctor", async () => {
    // Many notes, written straight into the file (the bot is stopped), so the reindex is still running when killed.
    const db = new Database(dbPath());
    const add = db.prepare(`INSERT INTO notes (user_id, text, kind, created_at, updated_at) VALUES ('chris', ?, 'fact', ?, ?)`);
    const at = "2026-12-01T10:00:00.000Z";
    db.transaction(() => {
      for (let i = 0; i < 30_000; i++) add.run(`Notiz ${i}: Christian mag Farbe ${i % 97} und Zahl ${i * 13}`, at, at);
    })();
    db.close();
    const notes = count(`SELECT count(*) AS n FROM notes WHERE superseded_at IS NULL`);

    const reindex = w.cli(["reindex", "--apply"]);
    const progressed = () =>
      w
        .query<{ payload: string }>(`SELECT payload FROM jobs WHERE kind = 'maintenance:reindex' AND status = 'pending'`)
        .map((r) => JSON.parse(r.payload) as { done: number })[0]?.done ?? 0;
    await until(
      () => (/reindex started/.test(reindex.output()) && progressed() > 0) || reindex.child.exitCode !== null,
      30_000,
      () => reindex.output(),
    );
    await w.kill(reindex);
    // Killed mid-run: part of the notes have vectors, the job records how far it got.
    const vectorsAtKill = count(`SELECT count(*) AS n FROM memory_vectors WHERE store = 'notes'`);
    expect(vectorsAtKill).toBeLessThan(notes);
    expect(count(`SELECT count(*) AS n FROM jobs WHERE kind = 'maintenance:reindex' AND status = 'pending'`)).toBe(1);

    bot = await w.startBot();
    // The bot answers while the reindex runs on (search falls back to keywords for notes without vectors).
    const [t] = tokens(600, 1);
    w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: `Was mag ich? ${t}` });
    await until(
      () => w.answered([t!]),
      15_000,
      () => bot!.output(),
    );
    await until(
      () => count(`SELECT count(*) AS n FROM jobs WHERE kind = 'maintenance:reindex' AND status = 'done'`) === 1,
      60_000,
      () => bot!.output().slice(-2000),
    );
    expect(bot.output()).toContain("finishing an interrupted reindex");
    const check = w.cli(["doctor", "--json"]);
    expect(await check.exited).toBe(0);
    const report = JSON.parse(
      check
        .output()
        .split("\n")
        .find((l) => l.startsWith("{"))!,
    ) as { rows: number; vectors: number; rowsWithoutVector: unknown[] };
    expect(report.rowsWithoutVector).toEqual([]);
    expect(report.rows).toBe(report.vectors);
    expect(count(`SELECT count(*) AS n FROM memory_vectors WHERE store = 'notes'`)).toBe(count(`SELECT count(*) AS n FROM notes WHERE superseded_at IS NULL`));
  }, 120_000);
});
