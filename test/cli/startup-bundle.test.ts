import { describe, expect, it } from "vitest";
import { build, type Metafile } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
// @ts-expect-error: build.js is plain JavaScript (it runs before anything is compiled) and has no types.
import { cliBuildOptions } from "../../admin-cli/build.js";

/** The source files of the chunks `lilo.js` loads before any command runs (its static imports, followed through). */
function startupInputs(meta: Metafile, outdir: string): string[] {
  const outputs = meta.outputs;
  const key = (file: string) => relative(process.cwd(), join(outdir, file));
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of outputs[out]?.imports ?? []) if (i.kind === "import-statement" && !i.external) visit(i.path);
  };
  visit(key("lilo.js"));
  return [...seen].flatMap((o) => Object.keys(outputs[o]?.inputs ?? {}));
}

describe("the compiled CLI's start-up", () => {
  // `lilo --help` must stay ≈ 0.1 s: the CLI imports values from core/index.ts, but only the files they come from load at start.
  it("loads at start only the few core files whose values the commands name, never createLilo or what is behind it", async () => {
    const outdir = mkdtempSync(join(tmpdir(), "lilo-cli-bundle-"));
    try {
      const { metafile } = await build({ ...cliBuildOptions(outdir), write: false });
      if (!metafile) throw new Error("cliBuildOptions asks esbuild for no metafile");
      const atStart = startupInputs(metafile, outdir);
      expect(atStart).toContain("core/api/names.ts");
      expect(atStart).toContain("core/foundation/errors.ts");
      // A value taken from core/internal.ts (the stores `lilo import` offers) comes alone too.
      expect(atStart).toContain("core/memory/transfer/import-stores.ts");
      expect(atStart.filter((f) => /^core\/(api\/create-lilo|conversation|background|lookups)\b|^core\/(index|internal)\.ts$/.test(f))).toEqual([]);
      // The whole door still comes, when a command opens Lilo.
      expect(Object.keys(metafile.inputs)).toContain("core/api/create-lilo.ts");
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 30_000);
});
