import { defineConfig } from "vitest/config";

/** Files that replace a module with `vi.mock`: they get a module cache of their own. */
const MOCKING = ["test/foundation/providers/transformers-embedder.test.ts"];

/** What both projects share; the global set-up stays at the top so it runs once per run, not once per project. */
const common = { testTimeout: 30_000, hookTimeout: 30_000, pool: "forks" } as const;

export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker; much of the suite's time is spent waiting on
    // child processes, servers and timers, so two files run side by side.
    maxWorkers: 2,
    globalSetup: ["test/setup/temp-root.ts", "test/setup/entries.ts"],
    projects: [
      // Files share a worker's module cache: importing the core again for each file cost more than
      // most tests. No other file relies on module state; each builds its own Lilo.
      { test: { ...common, name: "shared", include: ["test/**/*.test.ts"], exclude: MOCKING, isolate: false } },
      { test: { ...common, name: "isolated", include: MOCKING, isolate: true } },
    ],
  },
});
