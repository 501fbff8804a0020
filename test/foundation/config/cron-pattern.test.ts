import { Cron } from "croner";
import { describe, expect, it } from "vitest";
import { cronProblem } from "../../../core/foundation/config/cron-pattern.ts";

/** Does the scheduler's croner take `pattern`? */
function cronerTakes(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

const TAKEN = [
  "0 22 * * *",
  "*/30 * * * *",
  "30 8 * * 1-5",
  "0 9 * * 1-5/2",
  "0 0 ? * MON-FRI",
  "0 0 1 JAN *",
  "0 0 * jan-mar *",
  "0 0 * * 0-7",
  "0 0 L * *",
  "0 0 LW * *",
  "0 0 15W * *",
  "0 0 1,L * *",
  "0 0 * * 5L",
  "0 0 * * 5#2",
  "0 0 * * SUN#L",
  "0 0 0 * * *",
];
const REFUSED = [
  "0 99 * * *",
  "0 24 * * *",
  "0 0 0 * *",
  "0 0 32 * *",
  "0 0 * 13 *",
  "0 0 * * 8",
  "0 60 * * * *",
  "5/10 * * * *",
  "*/0 * * * *",
  "5-1 * * * *",
  "0 0 L-3 * *",
  "0 0 * * 1#6",
  "0 0 * * L",
  "a b c d e",
  "* * * *",
];

describe("the core's own check of a cron pattern", () => {
  it("takes what the scheduler's croner takes", () => {
    expect(TAKEN.filter((p) => !cronerTakes(p))).toEqual([]);
    expect(TAKEN.filter((p) => cronProblem(p) !== undefined)).toEqual([]);
  });

  it("refuses what croner refuses", () => {
    expect(REFUSED.filter((p) => cronerTakes(p))).toEqual([]);
    expect(REFUSED.filter((p) => cronProblem(p) === undefined)).toEqual([]);
  });

  it("names the field and its range in the refusal", () => {
    expect(cronProblem("0 99 * * *")).toBe("not a cron pattern (hour 99 is not within 0-23)");
    expect(cronProblem("* * * *")).toBe("not a cron pattern (it has 4 fields; 5, or 6 with seconds first)");
    expect(cronProblem("0 0 * * L")).toBe('not a cron pattern (day of week "L" is not a number or a name)');
  });
});
