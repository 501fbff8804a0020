import { PassThrough } from "node:stream";
import type { Command } from "commander";
import { afterEach, beforeEach } from "vitest";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "./test-lilo.ts";
import type { Lilo } from "../../core/index.ts";
import { buildProgram } from "../../admin-cli/program.ts";

/**
 * Runs `lilo <args>` in-process against a given Lilo (which the command
 * closes, like the real CLI does — so pass a fresh one per call).
 */
export async function runCli(open: () => Lilo, args: string[]): Promise<{ out: string; err: string; code: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const progress = new PassThrough();
  progress.resume();
  process.exitCode = 0;
  const program = buildProgram(open, { out: (t) => out.push(t), err: (t) => err.push(t), progressStream: progress });
  // Every command, not just the root: commander copies the setting only into commands made after it, and a
  // subcommand's usage error would otherwise end the test worker with process.exit.
  const throwInsteadOfExit = (c: Command): void => {
    c.exitOverride();
    for (const sub of c.commands) throwInsteadOfExit(sub);
  };
  throwInsteadOfExit(program);
  try {
    await program.parseAsync(["node", "lilo", ...args]);
  } catch (e) {
    const code = (e as { exitCode?: number }).exitCode ?? 1;
    if (code !== 0) process.exitCode = code;
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { out: out.join("\n"), err: err.join("\n"), code };
}

/**
 * A test Lilo and a connection of the test's own to its database, made
 * before each test of the calling `describe` and closed after it. The CLI
 * closes the Lilo it opens, so a test opens a fresh one per call on `db`.
 */
export function cliDatabase(env: Record<string, string> = {}): { readonly t: TestLilo; readonly db: Db } {
  let t: TestLilo | undefined;
  let db: Db | undefined;
  beforeEach(() => {
    t = makeTestLilo(env);
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db?.close();
    await t?.cleanup();
  });
  return {
    get t() {
      if (!t) throw new Error("cliDatabase() is read inside a test, after its beforeEach");
      return t;
    },
    get db() {
      if (!db) throw new Error("cliDatabase() is read inside a test, after its beforeEach");
      return db;
    },
  };
}
