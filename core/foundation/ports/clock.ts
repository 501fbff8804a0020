/** Where Lilo gets "now" from. Pass a fixed clock in tests for every time rule. */
export interface Clock {
  now(): Date;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved; for tests and replays. */
export function fixedClock(start: Date | string): Clock & { set(d: Date | string): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (d) => {
      current = new Date(d);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}
