import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT, tsFiles } from "./import-graph.ts";

/**
 * Packages only the outer layers may use: the chat platforms' SDKs, the web
 * server, the CLI's parser and its build, the scheduler and the progress
 * bars. The core reports what they show through its use cases and callbacks
 * (a download's progress, a live setting's change), so a program that embeds
 * Lilo does not load them.
 */
const OUTER_ONLY = [
  "grammy",
  "@grammyjs/",
  "matrix-bot-sdk",
  "@matrix-org/",
  "hono",
  "@hono/",
  "commander",
  "esbuild",
  "tsx",
  "croner",
  "cli-progress",
  "prom-client",
];

/** The packages a file imports (static, type-only, re-export and dynamic imports alike). */
function packagesOf(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"'./][^"']*)["']/g)].map((m) => m[1]!);
}

const outerOnly = (pkg: string) => OUTER_ONLY.some((p) => (p.endsWith("/") ? pkg.startsWith(p) : pkg === p || pkg.startsWith(`${p}/`)));

describe("architecture: the core imports no package of the outer layers", () => {
  it("none of grammY, matrix-bot-sdk, Hono, commander, esbuild, tsx, croner or cli-progress", () => {
    const offences = tsFiles(join(ROOT, "core")).flatMap((file) =>
      packagesOf(readFileSync(file, "utf8"))
        .filter(outerOnly)
        .map((pkg) => `${relative(ROOT, file)}: ${pkg}`),
    );
    expect(offences).toEqual([]);
  });

  it("the check knows a package by its name, its subpaths and its scope", () => {
    expect(packagesOf(`import { Cron } from "croner";\nconst b = await import("cli-progress");\nimport type { Context } from "grammy/types";`)).toEqual([
      "croner",
      "cli-progress",
      "grammy/types",
    ]);
    expect(["croner", "grammy/types", "@hono/node-server", "hono/jsx", "zod", "node:fs", "honorable"].filter(outerOnly)).toEqual([
      "croner",
      "grammy/types",
      "@hono/node-server",
      "hono/jsx",
    ]);
  });
});
