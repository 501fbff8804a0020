import { describe, expect, it } from "vitest";
import { Cron } from "croner";
import { latestOccurrence, nextOccurrence, readRecurrence, type Recurrence } from "../../../core/conversation/reminders/recurrence.ts";
import { localInstant } from "../../../core/foundation/util/local-time.ts";

const BERLIN = "Europe/Berlin";
const TOKYO = "Asia/Tokyo";

/** The occurrences of a rule after `from`, one after another. */
function run(rule: Recurrence, tz: string, from: string, n: number): string[] {
  const out: string[] = [];
  let t = new Date(from);
  const anchor = t;
  for (let i = 0; i < n; i++) out.push((t = nextOccurrence(rule, tz, t, anchor)).toISOString());
  return out;
}

describe("reminders: recurrence in the person's time zone", () => {
  it("a daily 02:30 in Berlin rings at 03:30 on the spring day the clock skips 02:30, and at 02:30 local before and after", () => {
    expect(run({ every: "day", at: "02:30" }, BERLIN, "2026-03-27T12:00:00Z", 4)).toEqual([
      "2026-03-28T01:30:00.000Z", // 02:30 CET
      "2026-03-29T01:30:00.000Z", // 02:30 does not exist: 03:30 CEST
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
      "2026-03-31T00:30:00.000Z",
    ]);
  });

  it("a daily 02:30 in Berlin rings once on the autumn day 02:30 happens twice: the first time", () => {
    expect(run({ every: "day", at: "02:30" }, BERLIN, "2026-10-23T12:00:00Z", 4)).toEqual([
      "2026-10-24T00:30:00.000Z", // 02:30 CEST
      "2026-10-25T00:30:00.000Z", // the first 02:30 (still CEST); the second one (01:30Z) does not ring
      "2026-10-26T01:30:00.000Z", // 02:30 CET
      "2026-10-27T01:30:00.000Z",
    ]);
  });

  it("a zone without daylight saving (Tokyo) keeps the same UTC time all year", () => {
    const times = run({ every: "day", at: "02:30" }, TOKYO, "2026-03-27T00:00:00Z", 400);
    expect(new Set(times.map((t) => t.slice(11)))).toEqual(new Set(["17:30:00.000Z"]));
  });

  it("every 31st rings on the last day of a shorter month (30 April, 28 February) and on the 31st otherwise", () => {
    const days = run({ every: "month", day: 31, at: "09:00" }, BERLIN, "2026-12-15T00:00:00Z", 6).map((t) => t.slice(0, 10));
    expect(days).toEqual(["2026-12-31", "2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31"]);
    expect(run({ every: "month", day: 31, at: "09:00" }, BERLIN, "2028-02-01T00:00:00Z", 1)[0]!.slice(0, 10)).toBe("2028-02-29");
  });

  it("every weekday skips Saturday and Sunday", () => {
    const days = run({ every: "weekday", at: "07:30" }, BERLIN, "2026-12-04T12:00:00Z", 3).map((t) => new Date(t).getUTCDay());
    expect(days).toEqual([1, 2, 3]);
  });

  it("every N hours counts from the anchor; every N days keeps the local clock time across the DST change", () => {
    expect(nextOccurrence({ every: "hours", n: 4 }, BERLIN, new Date("2026-12-05T13:00:00Z"), new Date("2026-12-05T10:00:00Z")).toISOString()).toBe(
      "2026-12-05T14:00:00.000Z",
    );
    expect(run({ every: "days", n: 2, at: "08:00" }, BERLIN, "2026-03-27T06:00:00Z", 2)).toEqual(["2026-03-27T07:00:00.000Z", "2026-03-29T06:00:00.000Z"]);
  });

  it("after a long downtime the catch-up is the one latest occurrence, not every missed one", () => {
    const rule: Recurrence = { every: "day", at: "09:00" };
    const latest = latestOccurrence(rule, BERLIN, new Date("2026-01-01T08:00:00Z"), new Date("2026-12-05T10:00:00Z"));
    expect(latest.toISOString()).toBe("2026-12-05T08:00:00.000Z");
  });

  it("agrees with croner's daily, weekly and monthly patterns on every day of a year in Berlin and Tokyo (away from the DST hour)", () => {
    const cases: [Recurrence, string][] = [
      [{ every: "day", at: "09:15" }, "0 15 9 * * *"],
      [{ every: "week", days: [1, 4], at: "18:30" }, "0 30 18 * * 1,4"],
      [{ every: "month", day: 15, at: "07:00" }, "0 0 7 15 * *"],
    ];
    for (const tz of [BERLIN, TOKYO]) {
      for (const [rule, pattern] of cases) {
        const cron = new Cron(pattern, { timezone: tz, paused: true });
        let t = new Date("2026-01-01T00:00:00Z");
        for (let i = 0; i < 60; i++) {
          const ours = nextOccurrence(rule, tz, t);
          expect(ours.toISOString()).toBe(cron.nextRun(t)!.toISOString());
          t = ours;
        }
      }
    }
  });

  it("a stored rule this version cannot read is no rule, not a crash", () => {
    expect(readRecurrence('{"every":"fortnight"}')).toBeUndefined();
    expect(readRecurrence("not json")).toBeUndefined();
    expect(readRecurrence(null)).toBeUndefined();
    expect(readRecurrence('{"every":"day","at":"08:00"}')).toEqual({ every: "day", at: "08:00" });
  });

  it("a local time resolves to its instant in the zone's rules", () => {
    expect(localInstant({ year: 2026, month: 7, day: 1, hour: 9, minute: 0 }, BERLIN).toISOString()).toBe("2026-07-01T07:00:00.000Z");
    expect(localInstant({ year: 2026, month: 12, day: 1, hour: 9, minute: 0 }, BERLIN).toISOString()).toBe("2026-12-01T08:00:00.000Z");
    expect(localInstant({ year: 2026, month: 12, day: 1, hour: 9, minute: 0 }, "UTC").toISOString()).toBe("2026-12-01T09:00:00.000Z");
  });
});
