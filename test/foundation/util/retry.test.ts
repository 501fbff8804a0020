import { describe, expect, it, vi } from "vitest";
import { ProviderError } from "../../../core/foundation/errors.ts";
import { backoffDelay, withRetry, type RetryInfo, type Sleep } from "../../../core/foundation/util/retry.ts";

/** A sleep that records the waits and returns at once. */
function recordingSleep(): Sleep & { waits: number[] } {
  const waits: number[] = [];
  const sleep = (async (ms: number) => {
    waits.push(ms);
  }) as Sleep & { waits: number[] };
  sleep.waits = waits;
  return sleep;
}

const retryable = (status = 503) => new ProviderError(`boom ${status}`, { provider: "p", status, retryable: true });
const fatal = () => new ProviderError("nope", { provider: "p", status: 400, retryable: false });

describe("withRetry", () => {
  it("returns the first success without waiting", async () => {
    const sleep = recordingSleep();
    await expect(withRetry(async () => "ok", { maxRetries: 3, sleep })).resolves.toBe("ok");
    expect(sleep.waits).toEqual([]);
  });

  it("retries a retryable ProviderError with exponential backoff, reporting each retry", async () => {
    const sleep = recordingSleep();
    const infos: RetryInfo[] = [];
    const fn = vi.fn(async (attempt: number) => {
      if (attempt < 3) throw retryable();
      return `done after ${attempt}`;
    });
    const out = await withRetry(fn, { maxRetries: 3, sleep, random: () => 0.999999, onRetry: (i) => infos.push(i) });
    expect(out).toBe("done after 3");
    expect(fn).toHaveBeenCalledTimes(4);
    expect(sleep.waits).toEqual([500, 1000, 2000]);
    expect(infos.map((i) => [i.attempt, i.delayMs, (i.error as ProviderError).status])).toEqual([
      [1, 500, 503],
      [2, 1000, 503],
      [3, 2000, 503],
    ]);
  });

  it("throws the last error when the retries run out", async () => {
    const sleep = recordingSleep();
    let n = 0;
    const err = await withRetry(
      async () => {
        throw retryable(500 + n++);
      },
      { maxRetries: 2, sleep },
    ).catch((e: unknown) => e);
    expect((err as ProviderError).status).toBe(502);
    expect(sleep.waits).toHaveLength(2);
  });

  it("does not retry non-retryable ProviderErrors or other errors", async () => {
    const sleep = recordingSleep();
    const a = vi.fn(async () => {
      throw fatal();
    });
    await expect(withRetry(a, { maxRetries: 3, sleep })).rejects.toMatchObject({ status: 400 });
    const b = vi.fn(async () => {
      throw new TypeError("bug");
    });
    await expect(withRetry(b, { maxRetries: 3, sleep })).rejects.toBeInstanceOf(TypeError);
    expect([a.mock.calls.length, b.mock.calls.length, sleep.waits.length]).toEqual([1, 1, 0]);
  });

  it("tries once with maxRetries 0", async () => {
    const fn = vi.fn(async () => {
      throw retryable();
    });
    await expect(withRetry(fn, { maxRetries: 0, sleep: recordingSleep() })).rejects.toBeInstanceOf(ProviderError);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("honours Retry-After up to its maximum", async () => {
    const hinted = (ms: number) => Object.assign(retryable(429), { retryAfterMs: ms });
    const sleep = recordingSleep();
    let n = 0;
    await withRetry(
      async () => {
        if (n++ === 0) throw hinted(7_000);
        return "ok";
      },
      { maxRetries: 2, sleep },
    );
    expect(sleep.waits).toEqual([7_000]);

    const fn = vi.fn(async () => {
      throw hinted(120_000);
    });
    await expect(withRetry(fn, { maxRetries: 2, sleep, maxRetryAfterMs: 60_000 })).rejects.toMatchObject({ status: 429 });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("stops when the signal aborts during the wait", async () => {
    const ac = new AbortController();
    const fn = vi.fn(async () => {
      throw retryable();
    });
    const sleep: Sleep = async () => {
      ac.abort();
      throw new Error("aborted");
    };
    await expect(withRetry(fn, { maxRetries: 5, sleep, signal: ac.signal })).rejects.toMatchObject({ status: 503 });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("retries whatever `retryable` accepts, without a limit when told so, each wait capped", async () => {
    const sleep = recordingSleep();
    const fn = vi.fn(async (attempt: number) => {
      if (attempt < 12) throw new TypeError("network down");
      return "up";
    });
    const retryable = (e: unknown) => e instanceof TypeError;
    await expect(withRetry(fn, { maxRetries: Infinity, retryable, baseDelayMs: 1_000, maxDelayMs: 60_000, sleep })).resolves.toBe("up");
    expect(fn).toHaveBeenCalledTimes(13);
    expect(Math.max(...sleep.waits)).toBeLessThanOrEqual(60_000);
    expect(sleep.waits.slice(7).every((w) => w >= 30_000)).toBe(true);
  });

  it("really waits with the default sleep (briefly)", async () => {
    let n = 0;
    const started = Date.now();
    await withRetry(
      async () => {
        if (n++ === 0) throw retryable();
        return "ok";
      },
      { maxRetries: 1, baseDelayMs: 20 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(9);
  });
});

describe("backoffDelay", () => {
  it("draws each wait from the upper half of a capped, doubling step", () => {
    const lo = (a: number) => backoffDelay(a, { baseDelayMs: 500, maxDelayMs: 8_000, random: () => 0 });
    const hi = (a: number) => backoffDelay(a, { baseDelayMs: 500, maxDelayMs: 8_000, random: () => 0.999999 });
    expect([0, 1, 2, 3, 4, 5, 9].map(lo)).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect([0, 1, 2, 3, 4, 5, 9].map(hi)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(2);
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});
