import { describe, expect, it } from "vitest";
import { HttpError } from "grammy";
import { MAX_CALL_RETRIES, outageRetry } from "../../adapters/telegram/outage.ts";
import type { Logger } from "../../core/index.ts";

type Line = { level: string; msg: string; data?: Record<string, unknown> };

/** The transformer around a fake Bot API call that is unreachable `down` times, with a recording sleep. */
function harness(down: number, random?: () => number) {
  const lines: Line[] = [];
  const at = (level: string) => (msg: string, data?: Record<string, unknown>) => void lines.push({ level, msg, ...(data ? { data } : {}) });
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  const waits: number[] = [];
  const contacts = { ok: 0, failed: 0 };
  const transform = outageRetry({
    logger,
    onContact: () => void contacts.ok++,
    onFailure: () => void contacts.failed++,
    sleep: async (ms) => void waits.push(ms),
    ...(random ? { random } : {}),
  });
  let calls = 0;
  const prev = (async () => {
    if (calls++ < down) throw new HttpError("Network request failed", new Error("ECONNREFUSED"));
    return { ok: true, result: [] };
  }) as never;
  const call = (method: string, signal?: AbortSignal) => transform(prev, method as never, {} as never, signal as never);
  return { call, lines, waits, contacts, calls: () => calls };
}

describe("Telegram outage loop", () => {
  it("keeps polling through a long outage, each wait doubled, jittered, capped at 60 s", async () => {
    const h = harness(30);
    await expect(h.call("getUpdates")).resolves.toMatchObject({ ok: true });
    expect(h.calls()).toBe(31);
    expect(h.waits).toHaveLength(30);
    h.waits.forEach((ms, i) => {
      const step = Math.min(60_000, 1_000 * 2 ** i);
      expect(ms).toBeGreaterThanOrEqual(step / 2);
      expect(ms).toBeLessThanOrEqual(step);
    });
    expect(Math.max(...h.waits)).toBeLessThanOrEqual(60_000);
    // Jitter: the capped waits are not all the same.
    expect(new Set(h.waits.slice(10)).size).toBeGreaterThan(1);
    expect(h.contacts).toEqual({ ok: 1, failed: 30 });
    expect(h.lines.filter((l) => l.msg === "telegram reachable again")).toHaveLength(1);
  });

  it("gives up on a send after MAX_CALL_RETRIES retries, letting the error go up", async () => {
    const h = harness(100, () => 0.5);
    await expect(h.call("sendMessage")).rejects.toBeInstanceOf(HttpError);
    expect(h.calls()).toBe(MAX_CALL_RETRIES + 1);
    expect(h.waits).toHaveLength(MAX_CALL_RETRIES);
    expect(h.waits.at(-1)).toBe(45_000); // the 60 s cap, jittered: 30 s + 0.5 · 30 s
    expect(h.contacts).toEqual({ ok: 0, failed: MAX_CALL_RETRIES + 1 });
    expect(h.lines.at(-1)).toMatchObject({ level: "warn", msg: "telegram unreachable, giving up on the call", data: { method: "sendMessage" } });
  });

  it("stops retrying when the bot stops (the signal aborts)", async () => {
    const ac = new AbortController();
    ac.abort();
    const h = harness(5);
    await expect(h.call("getUpdates", ac.signal)).rejects.toBeInstanceOf(HttpError);
    expect([h.calls(), h.waits.length]).toEqual([1, 0]);
  });
});
