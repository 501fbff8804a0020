import type { fixedClock } from "../../core/index.ts";

/**
 * Runs `fn` with the test's fixed clock set to `at`, then puts the clock
 * back: for setup through a use case that stamps the current time (a topic
 * added weeks ago, a summary written yesterday).
 */
export function atTime<T>(clock: ReturnType<typeof fixedClock>, at: Date | string, fn: () => T): T {
  const now = clock.now();
  clock.set(at);
  try {
    return fn();
  } finally {
    clock.set(now);
  }
}
