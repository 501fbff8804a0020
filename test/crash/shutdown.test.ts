import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrashWorld, TG_CHAT, tokens, until, type Proc } from "./world.ts";
import { parsePrometheus, total } from "../helpers/prometheus-text.ts";
import { freePort } from "../helpers/free-port.ts";

/**
 * The real bot process (app.ts) stopped with SIGTERM while the fake model
 * holds an answer, then started again: the graceful stop of a service
 * supervisor (systemd, a container runtime). One world, phases in order.
 */
describe("graceful stop of the real process", () => {
  const GRACE_S = 2;
  let w: CrashWorld;
  let bot: Proc | undefined;
  const tgSend = (token: string) => w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: `Nachricht ${token}` });
  const chatRequestsFor = (token: string) => w.llm.requests.filter((r) => String(r.messages.at(-1)?.content ?? "").includes(token));
  const tgTexts = () => w.tg.calls("sendMessage", TG_CHAT).map((c) => String(c.params.text));
  /** Sends `token`, waits until the model holds its answer and Telegram has dropped the update (acknowledged). */
  const sendHeld = async (token: string) => {
    w.hold(token);
    tgSend(token);
    await until(
      () => chatRequestsFor(token).length > 0,
      20_000,
      () => bot!.output().slice(-2000),
    );
    await until(
      () => w.tg.confirmedUpdateId >= w.tg.lastUpdateId,
      10_000,
      () => `tg ${w.tg.confirmedUpdateId}/${w.tg.lastUpdateId}`,
    );
  };
  /** Telegram only: the Matrix device's start would make each of the restarts several times slower. */
  const start = () => w.startBot(/telegram adapter running/);

  /** Lets the held model answer go, starts the bot again and expects `token` answered and stored exactly once. */
  const restartAnswersOnce = async (token: string) => {
    w.release();
    bot = await start();
    await until(
      () => w.answered([token]),
      15_000,
      () => bot!.output().slice(-2000),
    );
    expect(w.deliveredAnswers().get(token)).toBe(1);
    expect(w.storedTokens().get(token)).toBe(1);
  };
  const untilStopping = () =>
    until(
      () => /stopping/.test(bot!.output()),
      10_000,
      () => bot!.output().slice(-2000),
    );

  let health = "";
  const healthz = async () => {
    const res = await fetch(`${health}/healthz`);
    return { status: res.status, body: (await res.json()) as { status: string } };
  };
  /** The health server starts after the adapters: after a start, wait until it answers. */
  const untilServing = async () => {
    for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
      if (
        await fetch(`${health}/healthz`).then(
          () => true,
          () => false,
        )
      )
        return;
    }
    throw new Error("the health server did not answer within 10 s");
  };
  const chatCalls = async () => total(parsePrometheus(await (await fetch(`${health}/metrics`)).text()), "lilo_model_calls_total", { role: "chat" });

  beforeAll(async () => {
    w = await CrashWorld.create();
    const port = await freePort();
    health = `http://127.0.0.1:${port}`;
    w.extraEnv = { LILO_SHUTDOWN_GRACE_S: String(GRACE_S), LILO_HEALTH_PORT: String(port), MATRIX_HOMESERVER_URL: "", MATRIX_ACCESS_TOKEN: "" };
    bot = await start();
  }, 60_000);
  afterAll(async () => {
    if (bot && bot.child.exitCode === null) await w.kill(bot);
    await w?.close();
  });

  it("warns once at start that the database lies unencrypted, naming what to set", () => {
    expect(bot!.output().match(/the database is not encrypted: set LILO_DATA_KEY/g)).toHaveLength(1);
  });

  it("SIGTERM while the model is slower than the grace time exits 0 within it, says nothing, and the message is answered exactly once after the restart", async () => {
    const [t] = tokens(100, 1);
    await sendHeld(t!);
    const before = tgTexts().length;
    const started = Date.now();
    const code = await w.stop(bot!);
    const took = Date.now() - started;
    expect(code, bot!.output().slice(-2000)).toBe(0);
    // The grace, then a cancelled model call unwinds at once; the close is quick on an idle database.
    expect(took).toBeGreaterThanOrEqual(GRACE_S * 1000 - 100);
    expect(took).toBeLessThan(GRACE_S * 1000 + 4_000);
    expect(bot!.output()).toMatch(/cancelled/);
    // Nothing told to the user (no error note), nothing stored as an answer: the message waits in the inbox.
    expect(tgTexts().slice(before)).toEqual([]);
    expect(w.storedTokens().get(t!)).toBe(0);
    await restartAnswersOnce(t!);
  }, 90_000);

  it("SIGTERM while the model answers within the grace time delivers the answer before exit 0 (/healthz 503 meanwhile), and the restart does not answer again", async () => {
    const [t] = tokens(110, 1);
    await sendHeld(t!);
    expect((await healthz()).status).toBe(200);
    const exited = w.stop(bot!);
    await untilStopping();
    expect(await healthz()).toMatchObject({ status: 503, body: { status: "stopping" } });
    w.release();
    expect(await exited, bot!.output().slice(-2000)).toBe(0);
    expect(w.deliveredAnswers().get(t!)).toBe(1);
    bot = await start();
    await untilServing();
    // The start answers what was left open before it polls; one more message proves that start is past it.
    const [probe] = tokens(111, 1);
    const callsBefore = await chatCalls();
    tgSend(probe!);
    await until(
      () => w.answered([probe!]),
      15_000,
      () => bot!.output().slice(-2000),
    );
    expect(await chatCalls()).toBe(callsBefore + 1);
    expect(w.deliveredAnswers().get(t!)).toBe(1);
    expect(w.storedTokens().get(t!)).toBe(1);
  }, 90_000);

  it("a second SIGTERM exits at once, and the acknowledged message it interrupted is answered exactly once after the restart", async () => {
    const [t] = tokens(120, 1);
    await sendHeld(t!);
    bot!.child.kill("SIGTERM");
    await untilStopping();
    const started = Date.now();
    bot!.child.kill("SIGTERM");
    const code = await bot!.exited;
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(code).toBe(143);
    expect(w.storedTokens().get(t!)).toBe(0);
    await restartAnswersOnce(t!);
  }, 90_000);
});
