import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { seedExchange } from "../helpers/seed-chat.ts";
import { ConfigError, fixedClock, silentLogger } from "../../core/index.ts";
import { dailyPattern, startJobs, type RunningJobs } from "../../jobs/scheduler.ts";
import { runDiaryJob } from "../../jobs/diary-job.ts";
import { runReflectionJob } from "../../jobs/reflection-job.ts";

const HOUR = 3_600_000;
const NIGHT = "2026-12-02T22:45:00Z";

describe("the job scheduler", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let running: RunningJobs | undefined;
  const clock = fixedClock(NIGHT);
  const make = (env: Record<string, string> = {}) =>
    makeTestLilo({ ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "anthropic:claude-test", ...env }, { clock });

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways("1. Ein Gedanke.");
    t = make();
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await t.cleanup();
    await fake.close();
  });

  it("turns the diary time into a daily cron pattern", () => {
    expect(dailyPattern("23:45")).toBe("45 23 * * *");
    expect(dailyPattern("7:05")).toBe("5 7 * * *");
    expect(() => dailyPattern("23.45")).toThrow(RangeError);
  });

  it("schedules the default jobs in Berlin time, summer or winter: the diary at 23:45, the reflection at 22:00", () => {
    running = startJobs(t.lilo, silentLogger);
    const { diary, reflection } = running.jobs;
    expect(diary?.nextRun(new Date("2026-12-02T12:00:00Z"))?.toISOString()).toBe("2026-12-02T22:45:00.000Z");
    expect(diary?.nextRun(new Date("2026-07-01T12:00:00Z"))?.toISOString()).toBe("2026-07-01T21:45:00.000Z");
    expect(reflection?.nextRun(new Date("2026-12-02T12:00:00Z"))?.toISOString()).toBe("2026-12-02T21:00:00.000Z");
    // After tonight's run, the next one is tomorrow.
    expect(reflection?.nextRun(new Date("2026-12-02T21:00:00Z"))?.toISOString()).toBe("2026-12-03T21:00:00.000Z");
  });

  it("follows the configuration: other times, hourly reflection, switched off", async () => {
    await t.cleanup();
    t = make({ LILO_DIARY_TIME: "21:30", LILO_REFLECTION_CRON: "0 * * * *" });
    running = startJobs(t.lilo, silentLogger);
    expect(running.jobs.diary?.nextRun(new Date("2026-12-02T12:00:00Z"))?.toISOString()).toBe("2026-12-02T20:30:00.000Z");
    expect(running.jobs.reflection?.nextRun(new Date("2026-12-02T12:10:00Z"))?.toISOString()).toBe("2026-12-02T13:00:00.000Z");
    await running.stop();

    await t.cleanup();
    t = make({ LILO_DIARY_ENABLED: "false", LILO_REFLECTION_ENABLED: "false" });
    running = startJobs(t.lilo, silentLogger);
    expect(running.jobs).toEqual({});
  });

  it("refuses an invalid reflection pattern with a ConfigError", async () => {
    await t.cleanup();
    t = make({ LILO_REFLECTION_CRON: "0 99 * * *" });
    expect(() => startJobs(t.lilo, silentLogger)).toThrow(ConfigError);
  });

  it("runs the diary for every user Lilo knows, one failure never stopping the others", async () => {
    const { lilo } = t;
    seedExchange(lilo, "anna", "Hallo", "Hallo Anna", new Date(Date.parse(NIGHT) - HOUR));
    seedExchange(lilo, "chris", "Hallo", "Hallo Chris", new Date(Date.parse(NIGHT) - HOUR));
    seedExchange(lilo, "dora", "Lange her", "Ja", new Date(Date.parse(NIGHT) - 48 * HOUR));
    expect(lilo.knownUsers()).toEqual(["anna", "chris", "dora"]);

    fake.fail(500); // anna's call fails
    const summary = await runDiaryJob(lilo, silentLogger);
    expect(summary).toEqual({ users: 3, done: 1, skipped: 1, failed: 1 });
    expect(lilo.diary.list("anna")).toHaveLength(0);
    expect(lilo.diary.list("chris")).toHaveLength(1);
    expect(lilo.diary.list("dora")).toHaveLength(0);
  });

  it("wires each scheduled job to its run: a triggered diary job writes the entries", async () => {
    seedExchange(t.lilo, "chris", "Hallo", "Hallo Chris", new Date(Date.parse(NIGHT) - HOUR));
    running = startJobs(t.lilo, silentLogger);
    await running.jobs.diary!.trigger();
    expect(t.lilo.diary.list("chris")).toHaveLength(1);
    await running.jobs.reflection!.trigger();
    expect(t.lilo.reflection.list("chris")).toHaveLength(1);
  });

  it("runs the reflection for every user with new chats", async () => {
    const { lilo } = t;
    seedExchange(lilo, "anna", "Hallo", "Hallo Anna", new Date(Date.parse(NIGHT) - HOUR));
    seedExchange(lilo, "chris", "Hallo", "Hallo Chris", new Date(Date.parse(NIGHT) - HOUR));
    expect(await runReflectionJob(lilo, silentLogger)).toEqual({ users: 2, done: 2, skipped: 0, failed: 0 });
    expect(fake.requests).toHaveLength(2);
    // Nothing new since: both skipped, no model call.
    expect(await runReflectionJob(lilo, silentLogger)).toEqual({ users: 2, done: 0, skipped: 2, failed: 0 });
    expect(fake.requests).toHaveLength(2);
  });
});
