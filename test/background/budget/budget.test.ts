import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { fixedClock, silentLogger } from "../../../core/index.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../../helpers/test-lilo.ts";
import { recordingTransport } from "../../helpers/seed-chat.ts";
import { readDb } from "../../helpers/read-db.ts";
import { runDiaryJob } from "../../../jobs/diary-job.ts";
import { runReflectionJob } from "../../../jobs/reflection-job.ts";

/** Every call the fake answers costs exactly 100 tokens: 90 in, 10 out. */
const USAGE = { input_tokens: 90, output_tokens: 10 };

/**
 * Budgets with the fake clock: a warning once at 80 %, another
 * once at 100 %; at 100 % every call stops (the chat too, unless a fallback
 * model answers) until /budget lifts it for today; a new day or month starts over.
 */
describe("budgets", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  const clock = fixedClock("2026-12-03T09:00:00Z"); // 10:00 in Berlin

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => ({ text: isExtraction(body.system) ? NO_EXTRACTION : "Schön!", usage: USAGE }));
  });
  afterAll(() => fake.close());
  afterEach(async () => {
    await t.cleanup();
    fake.requests.length = 0;
  });

  function start(env: Record<string, string>) {
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_CHAT_MODEL: "anthropic:claude-main", ...env }), { clock });
    const transport = recordingTransport();
    t.lilo.push.registerTransport(transport);
    t.lilo.push.optIn("chris", { transport: "fake", chatId: "1" });
    return transport;
  }

  /** One chat turn (a chat call and, after the reply, an extraction call: 200 tokens), waited out. */
  async function turn(text = "Hallo") {
    clock.advance(60_000);
    const r = await t.lilo.handleMessage({ userId: "chris", text });
    await t.lilo.idle();
    return r;
  }

  it("a spent day budget caps every call: one warning at 80 %, one at 100 %, no model call after it until /budget lifts it; a new day starts over", async () => {
    const pushes = start({ LILO_BUDGET_DAY: "1000 tokens" });
    for (let i = 0; i < 3; i++) await turn();
    expect(t.lilo.usage.budget()).toMatchObject({ level: "ok", capped: false, day: { spent: 600, share: 0.6 } });
    expect(pushes.sent).toHaveLength(0);

    await turn(); // 800 tokens: 80 %
    expect(t.lilo.usage.budget().level).toBe("warn");
    expect(pushes.sent.map((p) => p.message.kind)).toEqual(["budget"]);
    expect(pushes.sent[0]!.message.text).toContain("80 % des Tagesbudgets");
    await t.lilo.usage.checkBudget();
    expect(pushes.sent).toHaveLength(1);

    const fifth = await turn(); // 1000 tokens: spent once the extraction after the reply is counted
    expect(fifth.text).toBe("Schön!");
    expect(t.lilo.usage.budget()).toMatchObject({ level: "spent", capped: true });
    expect(pushes.sent.map((p) => p.message.text)).toEqual([expect.stringContaining("80 %"), expect.stringContaining("Tagesbudget ist aufgebraucht")]);
    expect(pushes.sent[1]!.message.text).toContain("/budget hebt die Grenze für heute auf");

    // The chat pauses: the push told Christian, so the held-back message gets no words, and no model is asked.
    const before = fake.requests.length;
    const sixth = await turn("Bist du noch da?");
    expect(sixth).toMatchObject({ ok: false, paused: true, text: "" });
    expect(fake.requests.length).toBe(before);

    // Background jobs stop: no model call, not even from "write now".
    expect(await runDiaryJob(t.lilo, silentLogger)).toMatchObject({ users: 0, done: 0 });
    expect(await runReflectionJob(t.lilo, silentLogger)).toMatchObject({ users: 0, done: 0 });
    const forced = await t.lilo.diary.writeNow("chris");
    expect(forced).toMatchObject({ kind: "failed", error: expect.stringContaining("budget is spent") });
    expect(fake.requests.length).toBe(before);
    expect(pushes.sent).toHaveLength(2);

    // Lifted for today, the held-back message is answered again.
    expect(t.lilo.usage.liftBudget()).toBe("lifted");
    expect(t.lilo.usage.budget()).toMatchObject({ level: "spent", capped: false, lifted: true });
    expect(t.lilo.usage.liftBudget()).toBe("already-lifted");
    const retried = await t.lilo.retry("chris");
    expect(retried).toMatchObject({ ok: true, text: "Schön!" });
    expect(fake.requests.length).toBeGreaterThan(before);

    // A new day: the budget starts over, the jobs run again.
    clock.set("2026-12-04T09:00:00Z");
    expect(t.lilo.usage.budget()).toMatchObject({ level: "ok", capped: false, lifted: false, day: { period: "2026-12-04", spent: 0 } });
    expect(t.lilo.usage.liftBudget()).toBe("not-spent");
    expect((await runDiaryJob(t.lilo, silentLogger)).users).toBe(1);
    // The diary call (and the summary its delivered ping starts) are on the new day's bill.
    expect(t.lilo.usage.summary({ from: "2026-12-04", by: "role" }).groups.map((g) => g.key)).toContain("diary");
    expect((await turn()).text).toBe("Schön!");
  });

  it("while the month's budget is spent the chat runs on LILO_BUDGET_FALLBACK_MODEL (a live setting), until a new month starts", async () => {
    clock.set("2026-12-31T09:00:00Z");
    const pushes = start({ LILO_BUDGET_MONTH: "400 tokens" });
    await t.lilo.settings.set("budget.fallback_model", "anthropic:claude-cheap");
    await turn();
    await turn(); // 400 tokens: spent
    expect(t.lilo.usage.budget()).toMatchObject({ level: "spent", month: { period: "2026-12" } });
    const cheap = await turn();
    expect(cheap.model).toBe("anthropic:claude-cheap");
    // The push said it (Christian opted in), so the answer does not say it again.
    expect(cheap.text).toBe("Schön!");
    expect(pushes.sent.at(-1)!.message.text).toContain("bis dahin antworte ich mit anthropic:claude-cheap");
    expect(fake.requests.slice(-2).map((r) => r.model)).toEqual(["claude-cheap", "claude-cheap"]); // the chat call and the extraction after it
    expect(t.lilo.usage.summary({ by: "model" }).groups.map((g) => g.key)).toContain("anthropic:claude-cheap");

    clock.set("2027-01-01T09:00:00Z");
    expect(t.lilo.usage.budget().level).toBe("ok");
    expect((await turn()).model).toBe("anthropic:claude-main");
  });

  it("at the cap every role moves to the fallback model, also one with a model of its own", async () => {
    start({ LILO_BUDGET_DAY: "200 tokens", LILO_EXTRACTION_MODEL: "anthropic:claude-extract", LILO_BUDGET_FALLBACK_MODEL: "anthropic:claude-cheap" });
    await turn();
    expect(fake.requests.map((r) => r.model)).toEqual(["claude-main", "claude-extract"]);
    expect((await turn()).model).toBe("anthropic:claude-cheap");
    expect(fake.requests.slice(2).map((r) => r.model)).toEqual(["claude-cheap", "claude-cheap"]);
  });

  it("an extraction the cap refused waits without counting as a failure, and runs once the cap is lifted", async () => {
    start({ LILO_BUDGET_DAY: "300 tokens" });
    await turn();
    await turn(); // its answer reaches 300 tokens: the extraction after it is refused before it is sent
    expect(fake.requests).toHaveLength(3);
    const jobs = () => readDb(t.lilo).all("SELECT status, attempts FROM jobs WHERE kind = 'extraction' ORDER BY id");
    expect(jobs()).toEqual([
      { status: "done", attempts: 1 },
      { status: "pending", attempts: 0 },
    ]);
    expect(t.lilo.usage.liftBudget()).toBe("lifted");
    await turn();
    expect(jobs().map((j) => (j as { status: string }).status)).toEqual(["done", "done", "done"]);
    expect(fake.requests).toHaveLength(6);
  });

  it("sends no budget warning in quiet hours, nor a stale one once they end on a new day", async () => {
    clock.set("2026-12-03T22:00:00Z"); // 23:00 in Berlin
    const pushes = start({ LILO_BUDGET_DAY: "250 tokens", LILO_QUIET_HOURS: "22:30-07:00" });
    await turn(); // 200 tokens: 80 %
    expect(t.lilo.usage.budget().level).toBe("warn");
    expect(pushes.sent).toHaveLength(0);
    clock.set("2026-12-03T22:50:00Z");
    await t.lilo.usage.checkBudget();
    expect(pushes.sent).toHaveLength(0);
    clock.set("2026-12-04T06:05:00Z"); // 07:05 in Berlin, a new day: 0 % — no stale warning
    await t.lilo.usage.checkBudget();
    expect(pushes.sent).toHaveLength(0);
  });

  it("a warning held by quiet hours goes out the moment they end (same day)", async () => {
    clock.set("2026-12-03T11:00:00Z"); // 12:00 in Berlin
    const pushes = start({ LILO_BUDGET_DAY: "250 tokens", LILO_QUIET_HOURS: "11:30-14:00" });
    await turn();
    expect(pushes.sent).toHaveLength(0);
    clock.set("2026-12-03T13:05:00Z"); // 14:05 in Berlin
    await t.lilo.usage.checkBudget();
    expect(pushes.sent.map((p) => p.message.kind)).toEqual(["budget"]);
    await t.lilo.usage.checkBudget();
    expect(pushes.sent).toHaveLength(1);
  });
});
