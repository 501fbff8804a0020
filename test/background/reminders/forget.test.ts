import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { readDb } from "../../helpers/read-db.ts";

describe("reminders: forget everywhere", () => {
  let t: TestLilo | undefined;
  afterEach(() => t?.cleanup());

  it("forgetting the words removes the reminders that hold them, and only those", async () => {
    t = makeTestLilo({ LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de" }, { clock: fixedClock("2025-12-05T10:00:00Z") });
    const at = { transport: "fake", chatId: "7", source: "command" as const };
    t.lilo.reminders.set({ userId: "chris", words: "morgen um 9 Quokkaburg anrufen", ...at });
    t.lilo.reminders.set({ userId: "chris", words: "morgen um 10 Tee", ...at });
    const plan = await t.lilo.forget.find("chris", "Quokkaburg");
    await t.lilo.forget.apply(plan);
    expect(t.lilo.reminders.list("chris").map((r) => r.text)).toEqual(["Tee"]);
    expect(readDb(t.lilo).get(`SELECT COUNT(*) AS n FROM reminders WHERE text LIKE '%Quokkaburg%'`)).toEqual({ n: 0 });
  });
});
