/**
 * The extraction answer keeps to the stores' value rules
 * (core/foundation/store/values.ts): an item with a value no store would
 * write (profile category "bogus", weight 7) is dropped, logged and counted
 * as a model problem; the good items of the same answer are stored.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv } from "../../helpers/test-lilo.ts";
import { fixedClock, type Logger } from "../../../core/index.ts";
import { readDb } from "../../helpers/read-db.ts";

describe("an extraction answer with values no store accepts", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  const warnings: string[] = [];
  const logger: Logger = { debug: () => {}, info: () => {}, warn: (msg) => void warnings.push(msg), error: () => {} };

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock: fixedClock("2026-12-02T18:00:00Z"), logger });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("drops only the items whose values break a rule, counted as one model problem", async () => {
    const extraction = JSON.stringify({
      facts: ["Christian arbeitet als Lehrer in Köln"],
      content: [],
      profile: [
        { category: "bogus", text: "Christian arbeitet als Lehrer" },
        { category: "Work", text: "Christian arbeitet in Köln" },
      ],
      important: [
        { text: "Christian arbeitet als Lehrer", weight: 7 },
        { text: "Christian wohnt in Köln", weight: "2" },
      ],
    });
    fake.replyAlways((body) => (isExtraction(body.system) ? extraction : "Schön, Christian!"));
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Ich arbeite als Lehrer in Köln und wohne in Köln." });
    await t.lilo.idle();

    expect(r.ok).toBe(true);
    // Not retried: the answer's shape was fine, only two items broke a rule.
    expect(fake.requests.filter((x) => isExtraction(x.system))).toHaveLength(1);
    expect(t.lilo.profile.list("chris").map((p) => [p.category, p.text])).toEqual([["work", "Christian arbeitet in Köln"]]);
    expect(readDb(t.lilo).all("SELECT text, weight FROM important ORDER BY id")).toEqual([{ text: "Christian wohnt in Köln", weight: 2 }]);
    expect(readDb(t.lilo).all("SELECT text FROM notes ORDER BY id")).toEqual([{ text: "Christian arbeitet als Lehrer in Köln" }]);
    expect(t.lilo.maintenance.modelProblems()).toEqual({ "extraction:dropped": 1 });
    const detail = readDb(t.lilo).get("SELECT detail FROM model_problems") as { detail: string };
    expect(detail.detail).toContain("profile category must be one of");
    expect(detail.detail).toContain('"bogus"');
    expect(detail.detail).toContain("important weight must be a whole number from 1 to 3");
    expect(warnings).toContain("extraction items with invalid values were dropped");
  });
});
