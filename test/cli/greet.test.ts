import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { makeTestLilo, type TestLilo, fakeAnthropicEnv } from "../helpers/test-lilo.ts";
import { seedConversation } from "../helpers/seed-conversation.ts";
import { runCli } from "../helpers/cli.ts";
import { readDb } from "../helpers/read-db.ts";

const NOW = "2026-12-02T08:00:00Z"; // Wednesday 09:00 in Berlin

describe("lilo greet", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let db: Db;
  const clock = fixedClock(NOW);
  // The CLI closes the Lilo it opens; each call gets a fresh one on the same file.
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways("Guten Morgen, Christian! Wie war das Gespräch? [EMOTION: neugierig]");
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock });
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
    await fake.close();
  });

  it("lilo greet only previews: the greeting printed, nothing sent or stored", async () => {
    const none = await runCli(open, ["greet", "--user", "chris"]);
    expect(none.code).toBe(0);
    expect(none.out).toContain("no greeting: the user never wrote");
    expect(fake.requests).toHaveLength(0);

    seedConversation(t.lilo, "chris", [
      ["user", "Morgen habe ich das Gespräch.", "2026-11-30T19:02:00Z"],
      ["assistant", "Du schaffst das!", "2026-11-30T19:03:00Z"],
    ]);
    const r = await runCli(open, ["greet", "--user", "chris"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        "greeting for chris — pause: seit vorgestern Abend (2 Tage); today: Mittwoch, 2. Dezember 2026",
        "\nGuten Morgen, Christian! Wie war das Gespräch?\n",
        "the scheduled job would not greet now: the user has not opted in to pushes (/push on in a chat)",
        "(a preview: nothing was sent or stored)",
      ].join("\n"),
    );
    expect((readDb(t.lilo).get("SELECT count(*) AS n FROM messages WHERE user_id = 'chris'") as { n: number }).n).toBe(2);
    expect(t.lilo.push.history("chris")).toEqual([]);

    t.lilo.push.optIn("chris", { transport: "telegram", chatId: "42" });
    const json = JSON.parse((await runCli(open, ["greet", "--user", "chris", "--json"])).out);
    expect(json).toEqual({
      pause: "seit vorgestern Abend (2 Tage)",
      today: "Mittwoch, 2. Dezember 2026",
      text: "Guten Morgen, Christian! Wie war das Gespräch?",
    });
  });

  it("reports a failed model call with a non-zero exit code", async () => {
    seedConversation(t.lilo, "chris", [["user", "Hallo", "2026-11-30T19:02:00Z"]]);
    fake.fail(400);
    const r = await runCli(open, ["greet", "--user", "chris"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("error: the greeting call failed");
  });
});
