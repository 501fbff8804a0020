#!/usr/bin/env node
// The `lilo` command. Runs the compiled CLI in dist/cli/ (built by `npm install`,
// rebuilt here when a source is newer), which starts in a fraction of tsx's time;
// without esbuild or on a failed build it runs the TypeScript through tsx.
import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const compiled = join(root, "dist", "cli", "lilo.js");

/** True when the compiled CLI exists and no source it was built from changed since. */
function fresh() {
  try {
    const built = statSync(compiled).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(root, "dist", "cli", "inputs.json"), "utf8"));
    return inputs.every((p) => statSync(join(root, p)).mtimeMs <= built);
  } catch {
    return false; // not built, or a source was removed: build again
  }
}

async function ensureCompiled() {
  if (fresh()) return true;
  try {
    const { buildCli } = await import("./build.js");
    await buildCli();
    return true;
  } catch (err) {
    if (process.env.LILO_DEBUG) process.stderr.write(`lilo: compiling the CLI failed, running it through tsx: ${err}\n`);
    return false;
  }
}

if (process.env.LILO_CLI_TSX !== "1" && (await ensureCompiled())) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./lilo.ts");
}
