import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLilo, type Logger } from "../../core/index.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { startJobs, type RunningJobs } from "../../jobs/scheduler.ts";

/** Log lines as "level message", to see which job ran when. */
function recordingLogger(lines: string[]): Logger {
  const rec = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { debug: rec("debug"), info: rec("info"), warn: rec("warn"), error: rec("error") };
}

describe("settings changed with `lilo settings set` while the bot runs", () => {
  let t: TestLilo;
  let running: RunningJobs | undefined;
  const lines: string[] = [];
  const diaryRuns = () => lines.filter((l) => l === "info diary job finished").length;
  // The CLI is another process: its own Lilo and its own connection to the same SQLite file.
  const cli = (...args: string[]) => runCli(() => createLilo(t.lilo.config, { embedder: t.embedder }), ["settings", ...args]);

  beforeEach(() => {
    // The controllable clock: croner and the poll run on vitest's fake Date and timers.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"], now: new Date("2026-12-02T19:00:00Z") });
    lines.length = 0;
    t = makeTestLilo({ LILO_SETTINGS_POLL_SECONDS: "30" });
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    vi.useRealTimers();
    await t.cleanup();
  });

  it("the diary follows a live settings change without a restart: a new time, switched off, unset", async () => {
    running = startJobs(t.lilo, recordingLogger(lines));
    expect(running.jobs.diary?.nextRun()?.toISOString()).toBe("2026-12-02T22:45:00.000Z"); // 23:45 Berlin, the default

    const set = await cli("set", "diary.time", "21:30");
    expect(set.code).toBe(0);
    await vi.advanceTimersByTimeAsync(31_000); // one poll
    expect(lines).toContain("info jobs rescheduled after a settings change");
    expect(running.jobs.diary?.nextRun()?.toISOString()).toBe("2026-12-02T20:30:00.000Z"); // 21:30 Berlin

    await vi.advanceTimersByTimeAsync(Date.parse("2026-12-02T20:29:59Z") - Date.now());
    expect(lines.filter((l) => l.includes("diary") && !l.includes("scheduled"))).toEqual([]);
    expect(diaryRuns()).toBe(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(diaryRuns()).toBe(1);
    expect(running.jobs.diary?.previousRun()?.toISOString()).toBe("2026-12-02T20:30:00.000Z");

    // The old time passes without a second run.
    await vi.advanceTimersByTimeAsync(Date.parse("2026-12-02T22:50:00Z") - Date.now());
    expect(diaryRuns()).toBe(1);
    expect(running.jobs.diary?.nextRun()?.toISOString()).toBe("2026-12-03T20:30:00.000Z");

    // Switched off live: no job, no run the next evening; quiet hours reach the push service too.
    expect(t.lilo.push.quietNow()).toBe(false);
    expect((await cli("set", "diary.enabled", "false")).code).toBe(0);
    expect((await cli("set", "push.quiet_hours", "22:00-07:00")).code).toBe(0);
    await vi.advanceTimersByTimeAsync(31_000);
    expect(running.jobs.diary).toBeUndefined();
    expect(t.lilo.push.quietNow()).toBe(true); // 23:50 Berlin
    await vi.advanceTimersByTimeAsync(Date.parse("2026-12-03T21:00:00Z") - Date.now());
    expect(diaryRuns()).toBe(1);

    // Unset: back to .env (on, 23:45).
    await cli("unset", "diary.enabled");
    await cli("unset", "diary.time");
    await vi.advanceTimersByTimeAsync(31_000);
    expect(running.jobs.diary?.nextRun()?.toISOString()).toBe("2026-12-03T22:45:00.000Z");
  });
});
