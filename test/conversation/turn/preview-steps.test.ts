import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../../core/index.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { seedConversation } from "../../helpers/seed-conversation.ts";
import { atTime } from "../../helpers/clock-at.ts";
import { readDb } from "../../helpers/read-db.ts";

/** `lilo preview` is the exact sheet: the steps that store nothing and call no model run there too. */
describe("the preview runs the read-only turn steps", () => {
  let t: TestLilo | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it("shows what the turn's steps add to the sheet without storing anything", async () => {
    const clock = fixedClock("2026-12-02T08:00:00Z");
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian" }, { clock });
    const { lilo } = t;
    seedConversation(lilo, "chris", [
      ["user", "Morgen um 10 habe ich das Vorstellungsgespräch.", "2026-11-30T19:02:00Z"],
      ["assistant", "Du schaffst das!", "2026-11-30T19:03:00Z"],
    ]);
    const topicId = atTime(clock, "2026-11-20T00:00:00Z", () => lilo.topics.add("chris", "Wie lief der Umzug?", "followup", "2026-12-01T00:00:00Z"));
    const before = readDb(lilo).get("SELECT count(*) AS n FROM messages");

    const { request } = await lilo.preview({ userId: "chris", text: "Hallo! Wie viele Tagebucheinträge hast du schon geschrieben?" });
    const sheet = request.system;
    expect(sheet).toContain("Christian meldet sich nach der Pause wieder");
    expect(sheet).toContain("Morgen um 10 habe ich das Vorstellungsgespräch.");
    expect(sheet).toContain("Wie lief der Umzug?");
    expect(sheet).toContain("Frage nach deinem Tagebuch, Antwort aus der Datenbank: Du hast noch keinen Eintrag geschrieben.");
    // docs/spec.md §4 order: greeting context, then the due topic.
    expect(sheet.indexOf("meldet sich nach der Pause")).toBeLessThan(sheet.indexOf("Wie lief der Umzug?"));

    // Nothing stored, nothing changed.
    expect(readDb(lilo).get("SELECT count(*) AS n FROM messages")).toEqual(before);
    expect(lilo.topics.get(topicId)?.status).toBe("open");
  });
});
