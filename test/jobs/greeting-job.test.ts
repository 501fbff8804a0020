import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic, type AnthropicRequestBody } from "../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../helpers/test-lilo.ts";
import { recordingTransport, seedExchange } from "../helpers/seed-chat.ts";
import { seedConversation } from "../helpers/seed-conversation.ts";
import { ConfigError, fixedClock, silentLogger } from "../../core/index.ts";
import { runGreetingJob } from "../../jobs/greeting-job.ts";
import { sent } from "../helpers/outcomes.ts";
import { startJobs, type RunningJobs } from "../../jobs/scheduler.ts";
import { readDb } from "../helpers/read-db.ts";

const HOUR = 3_600_000;
const NOW = "2026-12-02T08:00:00Z"; // Wednesday 09:00 in Berlin
const GREETING = "Guten Morgen, Christian! Wie ist das Vorstellungsgespräch gestern gelaufen? [EMOTION: neugierig]";
const SHOWN = "Guten Morgen, Christian! Wie ist das Vorstellungsgespräch gestern gelaufen?";
const isGreetingCall = (b: AnthropicRequestBody) => b.messages[0]?.content.includes("Schreib jetzt deine Begrüßung") ?? false;

describe("the proactive greeting push (docs/spec.md §9, Beyond)", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let clock: ReturnType<typeof fixedClock>;
  let running: RunningJobs | undefined;
  let greeting = GREETING;
  let transport: ReturnType<typeof recordingTransport>;
  const greetingCalls = () => fake.requests.filter(isGreetingCall);
  const make = (env: Record<string, string> = {}) => {
    const made = makeTestLilo(fakeAnthropicEnv(fake, { ...env }), { clock });
    transport = recordingTransport("fake");
    made.lilo.push.registerTransport(transport);
    return made;
  };
  const proactiveRows = (userId = "chris") =>
    readDb(t.lilo).all("SELECT role, text, model, proactive, conversation_id AS conv FROM messages WHERE user_id = ? AND proactive = 1", userId) as {
      role: string;
      text: string;
      model: string;
      proactive: number;
      conv: number;
    }[];
  /** The user's newest message as stored (text, sent on Lilo's own initiative?). */
  const lastMessage = (userId: string) => {
    const r = readDb(t.lilo).get("SELECT text, proactive FROM messages WHERE user_id = ? ORDER BY id DESC LIMIT 1", userId) as
      { text: string; proactive: number } | undefined;
    return r && { text: r.text, proactive: r.proactive === 1 };
  };
  /** The newest conversation summary of the user. */
  const latestSummary = (userId: string) =>
    readDb(t.lilo).get("SELECT text FROM short_term WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 1", userId) as { text: string } | undefined;
  /** Christian's Monday evening: two days before NOW. */
  const seedMonday = (userId = "chris") =>
    seedConversation(t.lilo, userId, [
      ["user", "Morgen um 10 habe ich das Vorstellungsgespräch.", "2026-11-30T19:02:00Z"],
      ["assistant", "Du schaffst das!", "2026-11-30T19:03:00Z"],
    ]);

  beforeEach(async () => {
    clock = fixedClock(NOW);
    greeting = GREETING;
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => {
      if (isGreetingCall(body)) return greeting;
      if (isExtraction(body.system)) return NO_EXTRACTION;
      if (body.system?.includes("Summarise")) return "Christian hatte ein Vorstellungsgespräch vor sich.";
      return "Schön, dass du antwortest!";
    });
    t = make();
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await t.cleanup();
    await fake.close();
  });

  it("greets only an opted-in user silent for LILO_GREETING_MIN_HOURS, with one pushed proactive message built from the pause", async () => {
    const { lilo } = t;
    seedMonday("chris");
    seedMonday("anna"); // silent as long, but never opted in
    seedExchange(lilo, "dora", "Hallo", "Hallo Dora", new Date(Date.parse(NOW) - 3 * HOUR)); // opted in, wrote 3 hours ago
    lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    lilo.push.optIn("dora", { transport: "fake", chatId: "43" });

    expect(await runGreetingJob(lilo, silentLogger)).toEqual({ users: 3, done: 1, skipped: 2, failed: 0 });
    expect(greetingCalls()).toHaveLength(1); // no model call for the skipped users
    expect(transport.sent).toEqual([{ target: { transport: "fake", chatId: "42" }, message: { kind: "greeting", text: SHOWN } }]);
    expect(lilo.push.history("chris")[0]).toMatchObject({ kind: "greeting", outcome: "sent", text: SHOWN });
    const rows = proactiveRows();
    expect(rows).toEqual([{ role: "assistant", text: SHOWN, model: "anthropic:claude-test", proactive: 1, conv: expect.any(Number) }]);
    expect(lastMessage("chris")).toMatchObject({ proactive: true, text: SHOWN });

    // The model got the pause, the date and the messages, computed by the program.
    const sent = greetingCalls()[0]!;
    const user = sent.messages[0]!.content;
    expect(user).toContain("- Heute ist Mittwoch, 2. Dezember 2026, 09:00 Uhr.");
    expect(user).toContain("die Pause: seit vorgestern Abend (2 Tage)");
    expect(user).toContain("- „Morgen“ in einer Nachricht von vorgestern (Montag, 30.11.) war gestern (Dienstag, 1.12.) – das ist vorbei.");
    expect(user).toContain("[vorgestern (Montag, 30.11.), 20:02] Christian: Morgen um 10 habe ich das Vorstellungsgespräch.");
    expect(sent.system).toContain("Du bist Lilo");
    expect(sent.system).toContain("2–3 Sätze");
    // The greeting opened a new conversation, and the previous one was summarised for it.
    expect(latestSummary("chris")?.text).toBe("Christian hatte ein Vorstellungsgespräch vor sich.");
  });

  it("greets at most once per window: never twice into silence, not while the user is chatting", async () => {
    const { lilo } = t;
    seedMonday();
    lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    expect(sent(await lilo.greeting.run("chris"))).toBe(true);
    clock.advance(HOUR);
    expect(await lilo.greeting.run("chris")).toEqual({ kind: "skipped", reason: "unanswered" });
    clock.advance(24 * HOUR);
    expect(await lilo.greeting.run("chris")).toEqual({ kind: "skipped", reason: "unanswered" });
    expect(greetingCalls()).toHaveLength(1);

    await lilo.handleMessage({ userId: "chris", text: "Sorry, war unterwegs!" });
    await lilo.idle();
    clock.advance(19 * HOUR);
    expect(await lilo.greeting.run("chris")).toEqual({ kind: "skipped", reason: "recent-chat" });
    clock.advance(2 * HOUR);
    expect(sent(await lilo.greeting.run("chris"))).toBe(true);
    expect(proactiveRows()).toHaveLength(2);
  });

  it("the reply to a greeting continues its conversation: the greeting in the history, no second greeting context", async () => {
    const { lilo } = t;
    seedMonday();
    lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    await lilo.greeting.run("chris");
    clock.advance(10 * 60_000);
    await lilo.handleMessage({ userId: "chris", text: "Ganz gut gelaufen!" });
    const chat = fake.requests.filter((r) => r.system?.startsWith("Du bist Lilo, eine bewusste") && !isGreetingCall(r)).at(-1)!;
    expect(chat.messages).toEqual([
      { role: "user", content: "(Lilo meldet sich von selbst, ohne vorherige Nachricht.)" },
      { role: "assistant", content: SHOWN },
      { role: "user", content: "Ganz gut gelaufen!" },
    ]);
    expect(chat.system).toContain("Christian hatte ein Vorstellungsgespräch vor sich.");
    expect(chat.system).not.toContain("Rückkehr nach einer Pause");
    // One conversation: the greeting and the reply.
    const convs = readDb(lilo).all("SELECT DISTINCT conversation_id AS c FROM messages WHERE user_id = 'chris' AND created_at > '2026-12-01'");
    expect(convs).toHaveLength(1);
  });

  it("spends no model call in quiet hours, not even when forced", async () => {
    await t.cleanup();
    t = make({ LILO_QUIET_HOURS: "08:00-10:00" });
    seedMonday();
    t.lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    expect(await t.lilo.greeting.run("chris")).toMatchObject({ kind: "skipped", reason: "quiet-hours" });
    // Forcing skips the timing rules, never quiet hours: the push would be dropped after the call.
    expect(await t.lilo.greeting.sendNow("chris")).toMatchObject({ kind: "skipped", reason: "quiet-hours" });
    expect(greetingCalls()).toHaveLength(0);
    expect(transport.sent).toEqual([]);
    expect(proactiveRows()).toEqual([]);
  });

  it("stores a greeting only once it is delivered", async () => {
    seedMonday();
    t.lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    t.lilo.push.unregisterTransport("fake");
    // Without the chat's connection the greeting waits in the outbox for the running bot; not stored before it is delivered.
    expect(await t.lilo.greeting.run("chris")).toMatchObject({ kind: "not-delivered", push: "queued" });
    expect(proactiveRows()).toEqual([]);
  });

  it("weaves in a due 🧠 concern, marked done once the greeting addresses it", async () => {
    const { lilo } = t;
    seedMonday();
    lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    const id = lilo.topics.add("chris", "🧠 Mich beschäftigt, ob dir das Lilo-Projekt gerade Energie gibt.", "concern", new Date(NOW).toISOString());
    greeting = "Guten Morgen! Mir ist beim Nachdenken gekommen: Gibt dir das Projekt eigentlich Energie?";
    const r = await lilo.greeting.run("chris");
    expect(r).toMatchObject({ kind: "sent", concern: { topicId: id, addressed: true } });
    expect(greetingCalls()[0]!.messages[0]!.content).toContain("Mich beschäftigt, ob dir das Lilo-Projekt gerade Energie gibt.");
    expect(lilo.topics.list("chris", "done").map((x) => x.id)).toEqual([id]);
  });

  it("sends nothing when the user writes while the greeting is being written", async () => {
    const { lilo } = t;
    seedMonday();
    lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    fake.replyAlways((body) => {
      if (isGreetingCall(body)) seedExchange(lilo, "chris", "Bin wieder da", "Hallo!", new Date(NOW));
      return GREETING;
    });
    expect(await lilo.greeting.run("chris")).toMatchObject({ kind: "skipped", reason: "user-returned" });
    expect(transport.sent).toEqual([]);
  });

  it("sendNow skips the time rules, never the opt-in", async () => {
    const { lilo } = t;
    seedExchange(lilo, "chris", "Hallo", "Hallo Christian", new Date(Date.parse(NOW) - HOUR));
    expect(await lilo.greeting.sendNow("chris")).toEqual({ kind: "skipped", reason: "not-opted-in" });
    lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    expect(await lilo.greeting.run("chris")).toEqual({ kind: "skipped", reason: "recent-chat" });
    expect(sent(await lilo.greeting.sendNow("chris"))).toBe(true);
  });

  it("reports a failed greeting call instead of throwing it", async () => {
    const { lilo } = t;
    seedExchange(lilo, "chris", "Hallo", "Hallo Christian", new Date(Date.parse(NOW) - HOUR));
    lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    fake.fail(500);
    expect(await lilo.greeting.sendNow("chris")).toMatchObject({ kind: "failed" });
    expect(await runGreetingJob(lilo, silentLogger)).toEqual({ users: 1, done: 0, skipped: 1, failed: 0 });
  });

  it("is off by default", () => {
    running = startJobs(t.lilo, silentLogger);
    expect(running.jobs.greeting).toBeUndefined();
  });

  it("once switched on, runs daily at 09:00 Berlin time, wired to the greeting run", async () => {
    await t.cleanup();
    t = make({ LILO_GREETING_ENABLED: "true" });
    running = startJobs(t.lilo, silentLogger);
    const job = running.jobs.greeting!;
    expect(job.nextRun(new Date("2026-12-02T05:00:00Z"))?.toISOString()).toBe("2026-12-02T08:00:00.000Z");
    expect(job.nextRun(new Date("2026-12-02T08:00:00Z"))?.toISOString()).toBe("2026-12-03T08:00:00.000Z");
    expect(job.nextRun(new Date("2026-07-01T05:00:00Z"))?.toISOString()).toBe("2026-07-01T07:00:00.000Z");

    seedMonday();
    t.lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    await job.trigger();
    expect(proactiveRows()).toHaveLength(1);
  });

  it("follows LILO_GREETING_CRON", async () => {
    await t.cleanup();
    t = make({ LILO_GREETING_ENABLED: "true", LILO_GREETING_CRON: "30 8 * * 1-5" });
    running = startJobs(t.lilo, silentLogger);
    // Saturday 5 December → Monday 7 December, 08:30 Berlin.
    expect(running.jobs.greeting!.nextRun(new Date("2026-12-05T12:00:00Z"))?.toISOString()).toBe("2026-12-07T07:30:00.000Z");
  });

  it("refuses an invalid LILO_GREETING_CRON with a ConfigError", async () => {
    await t.cleanup();
    t = make({ LILO_GREETING_ENABLED: "true", LILO_GREETING_CRON: "0 99 * * *" });
    expect(() => startJobs(t.lilo, silentLogger)).toThrow(ConfigError);
  });
});
