import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, type TestLilo, fakeAnthropicEnv } from "../../helpers/test-lilo.ts";
import { recordingTransport, seedExchange } from "../../helpers/seed-chat.ts";
import { runCli } from "../../helpers/cli.ts";
import { createLilo, fixedClock, type Lilo } from "../../../core/index.ts";
import { concernOf, topicIdOf } from "../../helpers/outcomes.ts";
import { Outbox } from "../../../core/foundation/store/push-outbox.ts";
import { seedDb } from "../../helpers/seed-db.ts";
import { readDb } from "../../helpers/read-db.ts";

const HOUR = 3_600_000;
const CONCERN = "Wie lief eigentlich der Umzug nach Hamburg?";

/**
 * Two Lilo instances on one SQLite file: "the bot" (a chat connection, the
 * outbox delivery running) and "the CLI" (no connection) — a push the CLI
 * creates is delivered by the bot, because only the bot holds a connection.
 */
describe("one outbox for every push", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let cli: Lilo | undefined;
  const clock = fixedClock("2026-12-02T21:00:00Z");
  const openCli = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, clock });
  const proactive = () => readDb(t.lilo).all(`SELECT text FROM messages WHERE user_id = 'chris' AND proactive = 1 ORDER BY id`) as { text: string }[];

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => {
      if (body.model === "claude-think") return `1. Er plant viel.\n[ANSPRECHEN: ${CONCERN}]`;
      if (isExtraction(body.system)) return NO_EXTRACTION;
      return "Das klingt gut.";
    });
    t = makeTestLilo(
      fakeAnthropicEnv(fake, { LILO_CHAT_MODEL: "anthropic:claude-chat", LILO_REFLECTION_MODEL: "anthropic:claude-think", LILO_QUIET_HOURS: "23:00-07:00" }),
      { clock },
    );
    t.lilo.push.optIn("chris", { transport: "fake", chatId: "7" });
    seedExchange(t.lilo, "chris", "Ich packe Kisten.", "Viel Erfolg!", new Date(clock.now().getTime() - HOUR));
  });
  afterEach(async () => {
    await cli?.close();
    cli = undefined;
    await t.cleanup();
    await fake.close();
  });

  it("a concern pushed by the CLI process is delivered by the bot exactly once: queued, sent, logged, stored as proactive, answered in context", async () => {
    const bot = t.lilo;
    const transport = recordingTransport();
    bot.push.registerTransport(transport);
    cli = openCli();

    const thought = await cli.reflection.thinkNow("chris");
    // The CLI has no chat connection: it does not claim a delivery.
    expect(concernOf(thought)).toMatchObject({ status: "open", push: "queued" });
    expect(transport.sent).toEqual([]);
    expect(bot.push.history("chris")).toEqual([]);
    expect(bot.push.queued()).toBe(1);
    const topicId = topicIdOf(concernOf(thought))!;

    await bot.push.deliverPending();
    expect(transport.sent).toEqual([{ target: { transport: "fake", chatId: "7" }, message: { kind: "concern", text: `🧠 ${CONCERN}` } }]);
    expect(bot.push.history("chris")).toMatchObject([{ kind: "concern", outcome: "sent", transport: "fake", chatId: "7" }]);
    expect(proactive()).toEqual([{ text: `🧠 ${CONCERN}` }]);
    expect(bot.topics.get(topicId)).toMatchObject({ status: "done" });
    expect(bot.push.queued()).toBe(0);

    // Never sent twice: another pass finds nothing to deliver.
    await bot.push.deliverPending();
    expect(transport.sent).toHaveLength(1);

    // The user's answer reaches the model with the pushed concern in its history.
    clock.advance(10 * 60_000);
    fake.requests.length = 0;
    expect((await bot.handleMessage({ userId: "chris", text: "Anstrengend, aber wir sind drin!" })).ok).toBe(true);
    const chat = fake.requests.find((b) => b.model === "claude-chat" && !isExtraction(b.system))!;
    expect(chat.messages.map((m) => [m.role, m.content]).at(-2)).toEqual(["assistant", `🧠 ${CONCERN}`]);
  });

  it("`lilo thoughts think` while the bot runs: the running delivery sends the push", async () => {
    const transport = recordingTransport();
    t.lilo.push.registerTransport(transport);
    t.lilo.push.startDelivery(10);
    const r = await runCli(openCli, ["thoughts", "think", "--user", "chris"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/concern: open \(topic #\d+, push: queued\)/);
    await vi.waitFor(() => expect(transport.sent.map((s) => s.message.kind)).toEqual(["concern"]), { timeout: 5_000, interval: 10 });
    await vi.waitFor(() => expect(proactive()).toEqual([{ text: `🧠 ${CONCERN}` }]), { timeout: 5_000, interval: 10 });
    expect(t.lilo.push.history("chris").map((e) => e.outcome)).toEqual(["sent"]);
  });

  it("a queued push is checked again at delivery: one that quiet hours or an opt-out now forbid is dropped for good, never stored", async () => {
    const transport = recordingTransport();
    cli = openCli();
    expect(await cli.push.send("chris", { kind: "diary", text: "Ich habe Tagebuch geschrieben." }, { after: { proactive: { model: null } } })).toBe("queued");
    expect((await runCli(openCli, ["push", "log", "--user", "chris"])).out).toBe("1 push queued for the running bot\nno pushes yet");
    clock.advance(2 * HOUR + 30 * 60_000); // 23:30 UTC: quiet hours
    t.lilo.push.registerTransport(transport);
    await t.lilo.push.deliverPending();
    expect(transport.sent).toEqual([]);
    expect(t.lilo.push.history("chris").map((e) => e.outcome)).toEqual(["quiet-hours"]);
    expect(proactive()).toEqual([]);
    await t.lilo.push.deliverPending();
    expect(t.lilo.push.history("chris")).toHaveLength(1);

    clock.advance(9 * HOUR); // 08:30: a new push, but the user opted out before the bot delivered it
    expect(await cli.push.send("chris", { kind: "diary", text: "Noch einer." })).toBe("queued");
    cli.push.optOut("chris");
    await t.lilo.push.deliverPending();
    expect(transport.sent).toEqual([]);
    expect(t.lilo.push.history("chris").map((e) => e.outcome)).toEqual(["not-opted-in", "quiet-hours"]);
  });

  it("a push claimed by a delivery a crash interrupted is retried once on start, then given up", async () => {
    // The queue as earlier, crashed runs of Lilo left it, written on its own connection.
    seedDb(t.lilo, (sql) => {
      const outbox = new Outbox(sql);
      const now = clock.now().toISOString();
      const once = outbox.add("chris", { kind: "diary", text: "einmal unterbrochen" }, false, undefined, now);
      const twice = outbox.add("chris", { kind: "diary", text: "zweimal unterbrochen" }, false, undefined, now);
      outbox.claim(once, now); // the crash: claimed, never finished
      outbox.claim(twice, now);
      outbox.recover(now); // an earlier start retried it ...
      outbox.claim(twice, now); // ... and crashed again
    });

    const transport = recordingTransport();
    t.lilo.push.registerTransport(transport);
    t.lilo.push.startDelivery(60_000);
    await vi.waitFor(() => expect(transport.sent.map((s) => s.message.text)).toEqual(["einmal unterbrochen"]), { timeout: 5_000, interval: 10 });
    await t.lilo.push.stopDelivery();
    expect(t.lilo.push.history("chris").map((e) => [e.text, e.outcome, e.error])).toEqual([
      ["einmal unterbrochen", "sent", null],
      ["zweimal unterbrochen", "failed", "delivery interrupted twice"],
    ]);
    expect(t.lilo.push.queued()).toBe(0);
  });
});
