import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { fakeAnthropicEnv, isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../../helpers/test-lilo.ts";
import { readDb } from "../../helpers/read-db.ts";
import type { StreamUpdate } from "../../../core/index.ts";

const ANSWER = "Das freut mich sehr! [IMPORTANT: Christian war beim Zahnarzt] Wie geht es deinem Zahn jetzt? Tut er noch weh?";
const SHOWN = "Das freut mich sehr! Wie geht es deinem Zahn jetzt? Tut er noch weh?";

describe("the chat turn streams its visible answer", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  const start = async (extra: Record<string, string> = {}) => {
    t = makeTestLilo(fakeAnthropicEnv(fake, extra));
  };
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : { text: ANSWER, stream: { pieces: ANSWER.match(/.{1,3}/gs)! } }));
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("hands the adapter the visible text as it is written, never a marker, ending in the stored answer", async () => {
    await start();
    const updates: StreamUpdate[] = [];
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Ich war beim Zahnarzt" }, { stream: { onText: (u) => updates.push(u) } });
    await t.lilo.idle();
    expect(r).toMatchObject({ ok: true, text: SHOWN });
    expect(updates.length).toBeGreaterThan(5);
    expect(updates.map((u) => u.delta).join("")).toBe(SHOWN);
    for (const u of updates) {
      expect(SHOWN.startsWith(u.text)).toBe(true);
      expect(u.text).not.toMatch(/\[|IMPORTANT/);
    }
  });

  it("sends the answer whole when LILO_STREAMING is off", async () => {
    await start({ LILO_STREAMING: "off" });
    const updates: StreamUpdate[] = [];
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Hallo" }, { stream: { onText: (u) => updates.push(u) } });
    expect(r.text).toBe(SHOWN);
    expect(updates).toEqual([]);
    expect(fake.requests.some((b) => (b as { stream?: boolean }).stream)).toBe(false);
  });

  it("follows the live setting: streaming turned off while Lilo runs", async () => {
    await start();
    await t.lilo.settings.set("streaming", "off");
    const updates: StreamUpdate[] = [];
    await t.lilo.handleMessage({ userId: "chris", text: "Hallo" }, { stream: { onText: (u) => updates.push(u) } });
    expect(updates).toEqual([]);
  });

  it("keeps what was shown as the answer, marked stopped, when the person stops it", async () => {
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : { text: ANSWER, stream: { pieces: ANSWER.match(/.{1,3}/gs)!, paceMs: 15 } }));
    await start();
    const stop = new AbortController();
    const r = await t.lilo.handleMessage(
      { userId: "chris", text: "Erzähl" },
      {
        stream: {
          signal: stop.signal,
          onText: (u) => {
            if (u.text.length >= 15) stop.abort();
          },
        },
      },
    );
    expect(r).toMatchObject({ ok: true, stopped: true });
    expect(SHOWN.startsWith(r.text)).toBe(true);
    expect(r.text.length).toBeLessThan(SHOWN.length);
    expect(readDb(t.lilo).get("SELECT text, stopped FROM messages WHERE id = ?", r.answerMessageId)).toEqual({ text: r.text, stopped: 1 });
  });
});
