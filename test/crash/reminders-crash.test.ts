import Database from "better-sqlite3-multiple-ciphers";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrashWorld, TG_CHAT, until, type Proc } from "./world.ts";

/**
 * The real bot process (app.ts) killed with SIGKILL around a reminder's due
 * time and started again: a reminder due while the bot is down rings once
 * on start, one due while it runs rings once on time, and a kill right
 * after a ring never rings it again. One world, phases in order.
 */
describe("reminders across kill -9 of the real process", () => {
  let w: CrashWorld;
  let bot: Proc | undefined;
  /** Telegram only: the Matrix device's start would make each restart several times slower. */
  const start = () => w.startBot(/telegram adapter running/);
  const rings = (what: string) => w.tg.calls("sendMessage", TG_CHAT).filter((c) => String(c.params.text).includes(what)).length;
  const delivered = (what: string) =>
    w.query<{ state: string; delivered_count: number }>(`SELECT state, delivered_count FROM reminders WHERE text = ?`, what)[0];
  const outboxOpen = () => w.query<{ n: number }>(`SELECT COUNT(*) AS n FROM push_outbox WHERE status <> 'done'`)[0]!.n;

  /** A one-shot reminder of chris for the Telegram chat, due `inMs` from now (negative: already due), as /remind stores it. */
  const addReminder = (text: string, inMs: number) => {
    const db = new Database(join(w.dir, "lilo.db"));
    try {
      const now = new Date().toISOString();
      db.prepare(
        `INSERT INTO reminders (user_id, text, time_zone, recurrence, due_at, transport, chat_id, source, created_at, updated_at)
         VALUES ('chris', ?, 'Europe/Berlin', NULL, ?, 'telegram', ?, 'command', ?, ?)`,
      ).run(text, new Date(Date.now() + inMs).toISOString(), String(TG_CHAT), now, now);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    w = await CrashWorld.create();
    w.extraEnv = { MATRIX_HOMESERVER_URL: "", MATRIX_ACCESS_TOKEN: "", LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de" };
    bot = await start();
    await w.kill(bot);
  }, 60_000);
  afterAll(async () => {
    if (bot && bot.child.exitCode === null) await w.kill(bot);
    await w.close();
  });

  it("a reminder due while the bot was killed rings once on start; one due while it runs rings once on time", async () => {
    addReminder("Tee aufsetzen", -90_000);
    addReminder("Wäsche aufhängen", 2_500);
    bot = await start();
    await until(
      () => rings("Tee aufsetzen") > 0,
      20_000,
      () => bot!.output().slice(-2000),
    );
    const late = w.tg.calls("sendMessage", TG_CHAT).find((c) => String(c.params.text).includes("Tee aufsetzen"))!;
    expect(String(late.params.text)).toMatch(/^⏰ Du wolltest erinnert werden \(verspätet, fällig war \d\d:\d\d\): Tee aufsetzen$/);
    await until(
      () => rings("Wäsche aufhängen") > 0 && outboxOpen() === 0,
      20_000,
      () => bot!.output().slice(-2000),
    );
    expect(delivered("Wäsche aufhängen")).toEqual({ state: "delivered", delivered_count: 1 });
  }, 60_000);

  it("killed right after the rings and started again, it rings neither a second time", async () => {
    await w.kill(bot!);
    bot = await start();
    // The start's pass has run when the bot answers a message that came after it.
    w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: "/reminders" });
    await until(
      () => w.tg.calls("sendMessage", TG_CHAT).some((c) => String(c.params.text).includes("keine offenen Erinnerungen")),
      20_000,
      () => bot!.output().slice(-2000),
    );
    expect([rings("Tee aufsetzen"), rings("Wäsche aufhängen")]).toEqual([1, 1]);
    expect(delivered("Tee aufsetzen")).toEqual({ state: "delivered", delivered_count: 1 });
  }, 60_000);
});
