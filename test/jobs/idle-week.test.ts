import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock, silentLogger } from "../../core/index.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../helpers/test-lilo.ts";
import { recordingTransport, seedExchange } from "../helpers/seed-chat.ts";
import { runDiaryJob } from "../../jobs/diary-job.ts";
import { runReflectionJob } from "../../jobs/reflection-job.ts";
import { runGreetingJob } from "../../jobs/greeting-job.ts";
import { runFeedsJob } from "../../jobs/feeds-job.ts";

const HOUR = 3_600_000;

/**
 * Nothing spent when idle: every scheduled job decides without a
 * model call whether anything is new since its last run. After one
 * conversation and the work it brings (a diary entry, a reflection, one
 * greeting after the silence), a simulated week without a message — every
 * job run every hour, far more often than their schedules — calls no model.
 */
describe("an idle week costs nothing", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  const clock = fixedClock("2026-11-30T08:00:00Z"); // Monday 09:00 in Berlin

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "1. Ein schöner Tag.\n2. Ich freue mich auf morgen."));
    // No diary ping: a delivered ping is her last word, and the greeting never writes twice into silence.
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_GREETING_ENABLED: "true", LILO_GREETING_MIN_HOURS: "20", LILO_DIARY_PING: "false" }), { clock });
    t.lilo.push.registerTransport(recordingTransport());
    t.lilo.push.optIn("chris", { transport: "fake", chatId: "1" });
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  /** Every job, every hour, for `hours` hours. */
  async function runJobsHourly(hours: number): Promise<void> {
    for (let h = 0; h < hours; h++) {
      clock.advance(HOUR);
      await runDiaryJob(t.lilo, silentLogger);
      await runReflectionJob(t.lilo, silentLogger);
      await runGreetingJob(t.lilo, silentLogger);
      await runFeedsJob(t.lilo, silentLogger);
      await t.lilo.idle();
    }
  }

  it("after the conversation's own work, seven idle days make zero model calls", async () => {
    seedExchange(t.lilo, "chris", "Heute war ein guter Tag im Büro.", "Das freut mich!", clock.now());
    // The day of the conversation and the next one: the work it brings, each once.
    await runJobsHourly(48);
    const roles = t.lilo.usage.summary({ by: "role" }).groups.map((g) => [g.key, g.calls]);
    expect(Object.fromEntries(roles)).toMatchObject({ diary: 1, reflection: 1, greeting: 1 });
    const calls = fake.requests.length;
    const ledger = t.lilo.usage.summary().total.calls;

    await runJobsHourly(7 * 24);
    expect(fake.requests.length - calls).toBe(0);
    expect(t.lilo.usage.summary().total.calls - ledger).toBe(0);
  });
});
