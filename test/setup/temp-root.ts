import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Gives the whole test run one temp root and removes it afterwards, so a test
 * (or a child process it kills with SIGKILL) that never reaches its own
 * clean-up leaves nothing behind in the machine's /tmp. Forked workers and
 * their children inherit TMPDIR, and `os.tmpdir()` reads it on every call.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "lilo-vitest-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
