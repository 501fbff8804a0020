import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic, type AnthropicRequestBody } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo } from "../../helpers/test-lilo.ts";
import { recordingTransport, seedExchange } from "../../helpers/seed-chat.ts";
import { written } from "../../helpers/outcomes.ts";
import { fixedClock } from "../../../core/index.ts";
import { ANY_USER } from "../../../core/index.ts";

const HOUR = 3_600_000;
// 23:45 in Berlin (CET, UTC+1): the nightly diary time.
const NIGHT = "2026-12-02T22:45:00Z";
const ENTRY = "Heute war ein ruhiger, guter Tag mit Christian.";

describe("the diary (docs/spec.md §8)", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let clock: ReturnType<typeof fixedClock>;
  const diaryCalls = () => fake.requests.filter((r) => r.model === "claude-diary");
  const make = (env: Record<string, string> = {}) =>
    makeTestLilo(
      {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: fake.baseURL,
        LILO_CHAT_MODEL: "anthropic:claude-chat",
        LILO_DIARY_MODEL: "anthropic:claude-diary",
        LILO_USER_NAMES: "chris=Christian",
        ...env,
      },
      { clock },
    );

  beforeEach(async () => {
    clock = fixedClock(NIGHT);
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (body.model === "claude-diary" ? `${ENTRY} [EMOTION: froh]` : "ok"));
    t = make();
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("writes no entry without a conversation in the last 24 hours: Lilo invents no day", async () => {
    const { lilo } = t;
    expect(await lilo.diary.writeNow("chris")).toEqual({ kind: "skipped", reason: "no-conversation" });
    seedExchange(lilo, "chris", "Alte Nachricht", "Alte Antwort", new Date(Date.parse(NIGHT) - 25 * HOUR));
    expect(await lilo.diary.run("chris")).toEqual({ kind: "skipped", reason: "no-conversation" });
    expect(diaryCalls()).toHaveLength(0);
    expect(lilo.diary.list("chris")).toEqual([]);
  });

  it("hands the model exactly the day's material: 40 newest exchanges cut 400/600 as 'Ich', 3 thoughts, 3 entries, the profile, no notes", async () => {
    const { lilo } = t;
    const start = Date.parse(NIGHT) - 23 * HOUR;
    seedExchange(lilo, "chris", "ALTE-NACHRICHT von vorgestern", "ALTE-ANTWORT", new Date(Date.parse(NIGHT) - 30 * HOUR));
    const pad = (i: number) => String(i).padStart(2, "0");
    for (let i = 0; i < 45; i++) {
      seedExchange(lilo, "chris", `<U${pad(i)}>` + "u".repeat(500), `<L${pad(i)}>` + "l".repeat(700), new Date(start + i * 20 * 60_000));
    }
    const at = (h: number) => new Date(Date.parse(NIGHT) - h * HOUR);
    const thoughts: [string, string, number][] = [
      ["Gedanke von vor zwei Tagen", "reflection", 40],
      ["Gedanke A aus dem Nachdenken", "reflection", 20],
      ["Gedanke B im Gespräch", "chat", 10],
      ["Gedanke C im Gespräch", "chat", 5],
      ["Gedanke D aus dem Nachdenken", "reflection", 1.75],
    ];
    for (const [text, origin, h] of thoughts) await lilo.memory.add({ text, userId: "chris", store: "thoughts", createdAt: at(h), extra: { origin } });
    const days = ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01"];
    for (const [i, h] of [96, 72, 48, 24.5].entries()) {
      await lilo.memory.add({ text: `Eintrag ${i + 1}`, userId: "chris", store: "diary", createdAt: at(h), allowDuplicate: true, extra: { day: days[i] } });
    }
    lilo.profile.add("chris", "work", "Christian baut Lilo");
    await lilo.memory.add({ text: "Allgemeine Notiz: Christian mag Kino", userId: "chris" });

    const r = await lilo.diary.writeNow("chris");
    expect(r.kind).toBe("written");
    const [call] = diaryCalls() as [AnthropicRequestBody];
    expect(diaryCalls()).toHaveLength(1);
    const sheet = call.messages[0]!.content;
    expect(call.messages).toHaveLength(1);
    expect(call.system).toContain("Ich-Form");
    expect(call.system).toContain("kein Stichpunkt-Bericht");

    // The 40 newest exchanges only, oldest of them first.
    expect(sheet).not.toContain("ALTE-NACHRICHT");
    for (let i = 0; i < 5; i++) expect(sheet).not.toContain(`<U${pad(i)}>`);
    for (let i = 5; i < 45; i++) expect(sheet).toContain(`<U${pad(i)}>`);
    expect(sheet.indexOf("<U05>")).toBeLessThan(sheet.indexOf("<U44>"));
    // User lines cut to 400, Lilo's to 600 characters; her lines are "Ich", never "Lilo".
    const userText = "<U44>" + "u".repeat(500);
    const liloText = "<L44>" + "l".repeat(700);
    expect(sheet).toContain(`Christian: ${userText.slice(0, 400)}…\n`);
    expect(sheet).not.toContain(userText.slice(0, 401));
    expect(sheet).toContain(`Ich: ${liloText.slice(0, 600)}…`);
    expect(sheet).not.toContain(liloText.slice(0, 601));
    expect(sheet).not.toMatch(/\bLilo:/);

    // Up to 3 thoughts of the last 24 h, newest first, labelled with origin and "do not copy".
    expect(sheet).not.toContain("Gedanke von vor zwei Tagen");
    expect(sheet).not.toContain("Gedanke A");
    const d = sheet.indexOf("Gedanke D");
    const c = sheet.indexOf("Gedanke C");
    const b = sheet.indexOf("Gedanke B");
    expect(d).toBeGreaterThan(0);
    expect(d).toBeLessThan(c);
    expect(c).toBeLessThan(b);
    expect(sheet).toMatch(/\[aus deinem stillen Nachdenken, [^\]]*Material, nicht abschreiben\] Gedanke D/);
    expect(sheet).toMatch(/\[im Gespräch festgehalten, [^\]]*Material, nicht abschreiben\] Gedanke B/);

    // The last 3 entries for continuity (not the 4th), the profile, and no general notes.
    expect(sheet).toContain("nicht wiederholen");
    expect(sheet).not.toContain("Eintrag 1");
    expect(sheet).toMatch(/\[2026-11-29\]\nEintrag 2[\s\S]*Eintrag 3[\s\S]*\[2026-12-01\]\nEintrag 4/);
    expect(sheet).toContain("Christian baut Lilo");
    expect(sheet).not.toContain("Allgemeine Notiz");
    expect(`${call.system}${sheet}`).not.toContain("Kino");
  });

  it("keeps every entry as written, row (with its day) and vector alike: markers stripped, never deduplicated, forgotten from both", async () => {
    const { lilo } = t;
    seedExchange(lilo, "chris", "Hallo Lilo", "Hallo Christian", new Date(Date.parse(NIGHT) - 2 * HOUR));
    const first = written(await lilo.diary.writeNow("chris")).entry;
    expect(first).toMatchObject({ text: ENTRY, day: "2026-12-02" });
    const row = lilo.memory.get(ANY_USER, "diary", first.id)!;
    expect(row.text).toBe(ENTRY);
    expect(row.extra.day).toBe("2026-12-02");

    // The same text again (a second "write now"): both kept.
    const second = written(await lilo.diary.writeNow("chris")).entry;
    expect(second.id).not.toBe(first.id);
    const hits = await lilo.memory.search(ENTRY, { userId: "chris", store: "diary", k: 5 });
    expect(hits.map((h) => h.id).sort()).toEqual([first.id, second.id].sort());
    expect(lilo.diary.list("chris").map((e) => e.text)).toEqual([ENTRY, ENTRY]);

    // The nightly run finds nothing new since the last entry and writes nothing.
    expect(await lilo.diary.run("chris")).toEqual({ kind: "skipped", reason: "nothing-new" });
    // Deleting goes through forget: row and vector.
    await lilo.memory.forget(ANY_USER, "diary", first.id);
    expect((await lilo.memory.search(ENTRY, { userId: "chris", store: "diary", k: 5 })).map((h) => h.id)).toEqual([second.id]);
    expect(lilo.diary.get(first.id)).toBeUndefined();
    expect(lilo.diary.get(second.id)).toEqual({ ...second, userId: "chris" });
  });

  it("reports a failed model call as a result, not an exception", async () => {
    const { lilo } = t;
    seedExchange(lilo, "chris", "Hallo", "Hallo", new Date(Date.parse(NIGHT) - HOUR));
    fake.fail(500);
    const r = await lilo.diary.writeNow("chris");
    expect(r).toMatchObject({ kind: "failed" });
    expect(r.kind === "failed" && r.error).toBeTruthy();
    expect(lilo.diary.list("chris")).toEqual([]);
  });

  it("pings the phone only when the user opted in, logging every attempt", async () => {
    const { lilo } = t;
    const transport = recordingTransport();
    lilo.push.registerTransport(transport);
    seedExchange(lilo, "chris", "Hallo", "Hallo", new Date(Date.parse(NIGHT) - HOUR));

    const silent = written(await lilo.diary.writeNow("chris"));
    expect(silent.ping).toBe("not-opted-in");
    expect(transport.sent).toHaveLength(0);

    lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    const pinged = written(await lilo.diary.writeNow("chris"));
    expect(pinged.ping).toBe("sent");
    expect(transport.sent).toEqual([
      { target: { transport: "fake", chatId: "42" }, message: { kind: "diary", text: "📔 Ich habe eben in mein Tagebuch geschrieben." } },
    ]);
    expect(lilo.push.history("chris").map((h) => [h.kind, h.outcome])).toEqual([
      ["diary", "sent"],
      ["diary", "not-opted-in"],
    ]);
  });

  it("sends no ping when LILO_DIARY_PING=false", async () => {
    await t.cleanup();
    t = make({ LILO_DIARY_PING: "false" });
    const transport = recordingTransport();
    t.lilo.push.registerTransport(transport);
    t.lilo.push.optIn("chris", { transport: "fake", chatId: "42" });
    seedExchange(t.lilo, "chris", "Hallo", "Hallo", new Date(Date.parse(NIGHT) - HOUR));
    expect((await t.lilo.diary.writeNow("chris")).kind).toBe("written");
    expect(transport.sent).toHaveLength(0);
  });

  it("writes in English with 'I' when Lilo speaks English", async () => {
    await t.cleanup();
    t = make({ LILO_LANGUAGE: "en" });
    seedExchange(t.lilo, "chris", "Hi Lilo", "Hi Christian", new Date(Date.parse(NIGHT) - HOUR));
    await t.lilo.diary.writeNow("chris");
    const sheet = diaryCalls()[0]!.messages[0]!.content;
    expect(sheet).toContain("I: Hi Christian");
    expect(sheet).toContain("Christian: Hi Lilo");
    expect(diaryCalls()[0]!.system).toContain("first person");
    expect(isExtraction(diaryCalls()[0]!.system)).toBe(false);
  });
});
