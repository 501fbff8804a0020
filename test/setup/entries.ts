import { build } from "esbuild";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ENTRIES, ENTRIES_DIR } from "../helpers/entry.ts";

/** Bundles the programs the tests start as child processes (test/helpers/entry.ts says why), once before the run. */
export default async function setup(): Promise<void> {
  const root = join(import.meta.dirname, "..", "..");
  rmSync(ENTRIES_DIR, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: [...ENTRIES],
    entryNames: "[name]",
    outdir: ENTRIES_DIR,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Packages stay in node_modules: native addons and their lazy loading work as in production.
    packages: "external",
    logLevel: "warning",
  });
}
