import { basename, join } from "node:path";

/**
 * The programs the tests start as real processes. Each is bundled once per
 * test run (test/setup/entries.ts) so that a child starts as plain Node:
 * through tsx every start compiles hundreds of files again, seconds each on
 * a loaded two-core machine, and the crash suite starts dozens of children.
 */
export const ENTRIES = [
  "main.ts",
  "test/crash/bot-entry.ts",
  "test/crash/cli-entry.ts",
  "test/helpers/snapshot-kill-child.ts",
  "test/helpers/index-burst-child.ts",
  "test/helpers/checkpoints-close-child.ts",
] as const;

export type Entry = (typeof ENTRIES)[number];

/** Where the run's bundles are written: two folders deep, as the CLI's own build, so files found beside the sources resolve alike. */
export const ENTRIES_DIR = join(import.meta.dirname, "..", "..", "dist", "test-entries");

/** The bundled script of `source`, to start with `process.execPath`. */
export function entryScript(source: Entry): string {
  return join(ENTRIES_DIR, `${basename(source, ".ts")}.js`);
}
