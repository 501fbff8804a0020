import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Hono } from "hono";
import type { WebEnv } from "./viewer.ts";

const require = createRequire(import.meta.url);
// Beside this file when run from source; the bundled CLI (dist/cli/) finds them in the source tree.
const STATIC_DIR = [join(import.meta.dirname, "static"), join(import.meta.dirname, "..", "..", "adapters", "web", "static")].find((d) =>
  existsSync(join(d, "style.css")),
);
const own = (name: string) => join(STATIC_DIR ?? join(import.meta.dirname, "static"), name);

/** The files under /static: htmx and uPlot from their npm packages (no CDN), the pages' stylesheet and chart script. */
const FILES: Record<string, { path: () => string; type: string }> = {
  "htmx.min.js": { path: () => require.resolve("htmx.org/dist/htmx.min.js"), type: "text/javascript" },
  "uPlot.iife.min.js": { path: () => require.resolve("uplot/dist/uPlot.iife.min.js"), type: "text/javascript" },
  "uPlot.min.css": { path: () => require.resolve("uplot/dist/uPlot.min.css"), type: "text/css" },
  "style.css": { path: () => own("style.css"), type: "text/css" },
  "usage-chart.js": { path: () => own("usage-chart.js"), type: "text/javascript" },
  "nav.js": { path: () => own("nav.js"), type: "text/javascript" },
};

/** Serves the static files, read once on first use; anything else under /static is a 404. */
export function registerAssets(app: Hono<WebEnv>): void {
  const cache = new Map<string, Buffer>();
  app.get("/static/:name", (c) => {
    const name = c.req.param("name");
    const file = FILES[name];
    if (!file) return c.notFound();
    let body = cache.get(name);
    if (!body) cache.set(name, (body = readFileSync(file.path())));
    return c.body(new Uint8Array(body), 200, { "content-type": `${file.type}; charset=utf-8`, "cache-control": "no-cache" });
  });
}
