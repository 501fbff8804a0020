import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { fixedClock } from "../../../core/index.ts";
import { seedDb } from "../../helpers/seed-db.ts";
import { readDb } from "../../helpers/read-db.ts";

describe("the durable inbox and after-reply jobs (core)", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  const clock = fixedClock("2026-12-02T18:00:00Z");

  beforeEach(async () => {
    clock.set("2026-12-02T18:00:00Z");
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : `Antwort auf: ${String(body.messages.at(-1)?.content).split("\n").at(-1)}`));
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_INBOX_MAX_AGE_MINUTES: "60" }), { clock });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  const msg = (text: string, externalId: string) => ({ userId: "chris", text, transport: "telegram", chatId: "111", externalId });

  it("handles each platform message id once", async () => {
    const { lilo } = t;
    const first = lilo.inbox.receive(msg("Hallo", "111:1"));
    expect(lilo.inbox.receive(msg("Hallo", "111:1"))).toEqual({ messageId: first.messageId, duplicate: true });
    const answered = await lilo.handleMessage(msg("Hallo", "111:1"));
    expect(answered).toMatchObject({ ok: true, text: "Antwort auf: Hallo", userMessageId: first.messageId });
    // A redelivery (Telegram sends the update again after a crash) is neither stored nor answered again.
    const again = await lilo.handleMessage(msg("Hallo", "111:1"));
    expect(again).toMatchObject({ duplicate: true, text: "" });
    expect((readDb(lilo).get("SELECT count(*) AS n FROM messages") as { n: number }).n).toBe(2);
    expect(fake.requests.filter((r) => !isExtraction(r.system))).toHaveLength(1);
  });

  it("on start, finishes each message the last run left open according to its state and age", async () => {
    const { lilo } = t;
    const old = lilo.inbox.receive(msg("Bist du da?", "111:1"));
    clock.advance(2 * 60 * 60_000);
    const undelivered = lilo.inbox.receive(msg("Und jetzt?", "111:2"));
    await lilo.inbox.finish(undelivered.messageId); // answered, but the process died before sending it
    const fresh = lilo.inbox.receive(msg("Wie spät ist es?", "111:3"));
    const open = lilo.inbox.unfinished("telegram");
    expect(open.map((o) => [o.message.text, o.replyState, o.answer?.text])).toEqual([
      ["Bist du da?", "pending", undefined],
      ["Und jetzt?", "answered", "Antwort auf: Und jetzt?"],
      ["Wie spät ist es?", "pending", undefined],
    ]);
    const results = [];
    for (const o of open) results.push(await lilo.inbox.finish(o.message.id));
    expect(results.map((r) => r?.text)).toEqual([
      "Ich war offline; deine Nachricht von Mittwoch, 2. Dezember 2026 um 19:00 habe ich gesehen. Schreib mir gern noch einmal, wenn sie noch aktuell ist.",
      "Antwort auf: Und jetzt?",
      "Antwort auf: Wie spät ist es?",
    ]);
    for (const r of results) lilo.inbox.delivered(r!.answerMessageId!);
    expect(lilo.inbox.unfinished("telegram")).toEqual([]);
    expect(await lilo.inbox.finish(old.messageId)).toBeUndefined();
    expect(await lilo.inbox.finish(fresh.messageId)).toBeUndefined();
    // The old message was only acknowledged: no model call answered it.
    expect(fake.requests.filter((r) => r.messages.at(-1)?.content === "Bist du da?")).toEqual([]);
  });

  it("after-reply work is a durable job that a crash does not lose", async () => {
    const { lilo } = t;
    await lilo.handleMessage({ userId: "chris", text: "Hallo" });
    await lilo.idle();
    expect(readDb(lilo).all("SELECT kind, status FROM jobs ORDER BY id")).toEqual([
      { kind: "extraction", status: "done" },
      { kind: "message-vectors", status: "done" },
      { kind: "after:due-topic", status: "done" },
    ]);
    // As if the process had died during the extraction call.
    seedDb(lilo, (sql) => sql.prepare("UPDATE jobs SET status = 'pending', attempts = 1").run());
    expect(lilo.inbox.resumeJobs()).toBe(3);
    await lilo.idle();
    expect(readDb(lilo).all("SELECT status, attempts FROM jobs ORDER BY id")).toEqual([
      { status: "done", attempts: 2 },
      { status: "done", attempts: 2 },
      { status: "done", attempts: 2 },
    ]);
    expect(fake.requests.filter((r) => isExtraction(r.system))).toHaveLength(2);
  });
});
