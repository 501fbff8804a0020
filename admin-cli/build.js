// Compiles the `lilo` CLI to JavaScript (dist/cli/) so it starts without tsx.
// Run by `npm install` / `npm ci` (the `prepare` script) and by bin.js when the
// sources changed since the last build. Plain JavaScript: it must run before
// anything is compiled.
import { build } from "esbuild";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the compiled CLI lives (git-ignored). */
export const OUT_DIR = join(root, "dist", "cli");
/** Which sources the build read: bin.js rebuilds when any of them is newer. */
export const INPUTS_FILE = join(OUT_DIR, "inputs.json");

/**
 * Bundles admin-cli/lilo.ts with code splitting: a command's code loads only
 * when it runs. Chunk names carry a content hash, so a `lilo` still running
 * the previous build keeps finding its chunks; `clean` (the install) removes
 * the ones no longer used.
 */
export async function buildCli({ clean = false } = {}) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["admin-cli/lilo.ts"],
    outdir: OUT_DIR,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Packages stay in node_modules: native addons and their own lazy loading keep working.
    packages: "external",
    metafile: true,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs).map((p) => relative(root, join(root, p)));
  writeFileSync(INPUTS_FILE, JSON.stringify(inputs));
  if (clean) {
    const used = new Set(Object.keys(result.metafile.outputs).map((p) => join(root, p)));
    for (const f of readdirSync(OUT_DIR)) if (f.endsWith(".js") && !used.has(join(OUT_DIR, f))) rmSync(join(OUT_DIR, f));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli({ clean: true });
