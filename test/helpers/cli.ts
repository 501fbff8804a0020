import { PassThrough } from "node:stream";
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
  program.exitOverride();
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
