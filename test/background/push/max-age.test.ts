import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { recordingTransport } from "../../helpers/seed-chat.ts";
import { createLilo, fixedClock, type Lilo, type Logger } from "../../../core/index.ts";
import { readDb } from "../../helpers/read-db.ts";

const HOUR = 3_600_000;

function recordingLogger(): Logger & { lines: { level: string; msg: string; data?: unknown }[] } {
  const lines: { level: string; msg: string; data?: unknown }[] = [];
  const at = (level: string) => (msg: string, data?: unknown) => void lines.push({ level, msg, data });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/**
 * A push the CLI queued while the bot was down waits in the outbox; once it
 * is older than LILO_PUSH_MAX_AGE_HOURS the bot drops it instead of sending
 * a stale diary ping.
 */
describe("a queued push has a maximum age", () => {
  let t: TestLilo;
  let cli: Lilo | undefined;
  let logger: ReturnType<typeof recordingLogger>;
  const clock = fixedClock("2026-12-02T12:00:00Z");
  const outboxOutcomes = () => readDb(t.lilo).all(`SELECT outcome FROM push_outbox ORDER BY id`) as { outcome: string | null }[];

  const start = (env: Record<string, string> = {}) => {
    logger = recordingLogger();
    t = makeTestLilo(env, { clock, logger });
    t.lilo.push.optIn("chris", { transport: "fake", chatId: "7" });
    cli = createLilo(t.lilo.config, { embedder: t.embedder, clock });
  };
  beforeEach(() => {
    clock.set(new Date("2026-12-02T12:00:00Z"));
  });
  afterEach(async () => {
    await cli?.close();
    cli = undefined;
    await t.cleanup();
  });

  it("drops a push older than the default 24 hours for good, logged as expired, while a younger one is sent", async () => {
    start();
    expect(t.lilo.config.push.maxAgeHours).toBe(24);
    expect(await cli!.push.send("chris", { kind: "diary", text: "📔 Tagebuch von letzter Woche" })).toBe("queued");
    clock.advance(2 * HOUR);
    expect(await cli!.push.send("chris", { kind: "diary", text: "📔 Tagebuch von gestern" })).toBe("queued");
    clock.advance(23 * HOUR);

    const transport = recordingTransport();
    t.lilo.push.registerTransport(transport);
    await t.lilo.push.deliverPending();

    expect(transport.sent.map((s) => s.message.text)).toEqual(["📔 Tagebuch von gestern"]);
    const history = t.lilo.push.history("chris");
    expect(history.map((h) => [h.text, h.outcome])).toEqual([
      ["📔 Tagebuch von gestern", "sent"],
      ["📔 Tagebuch von letzter Woche", "failed"],
    ]);
    expect(history[1]!.error).toMatch(/^expired: queued 25 h ago, more than 24 h/);
    expect(outboxOutcomes()).toEqual([{ outcome: "expired" }, { outcome: "sent" }]);
    expect(t.lilo.push.queued()).toBe(0);
    expect(logger.lines.find((l) => l.msg.startsWith("queued push dropped"))).toMatchObject({
      level: "info",
      data: { userId: "chris", kind: "diary", ageHours: 25, maxHours: 24 },
    });

    // Dropped for good: another pass sends nothing.
    await t.lilo.push.deliverPending();
    expect(transport.sent).toHaveLength(1);
  });

  it("LILO_PUSH_MAX_AGE_HOURS sets the limit, also for a forced push", async () => {
    start({ LILO_PUSH_MAX_AGE_HOURS: "2" });
    expect(await cli!.push.send("chris", { kind: "concern", text: "🧠 Wie geht's?" }, { force: true })).toBe("queued");
    clock.advance(3 * HOUR);
    const transport = recordingTransport();
    t.lilo.push.registerTransport(transport);
    await t.lilo.push.deliverPending();
    expect(transport.sent).toEqual([]);
    expect(t.lilo.push.history("chris")).toMatchObject([{ outcome: "failed", error: expect.stringMatching(/^expired: queued 3 h ago, more than 2 h/) }]);
  });
});
