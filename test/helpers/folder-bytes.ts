import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `dir` (recursively), relative path → sha256 of its bytes: equal maps mean a byte-identical folder. */
export function folderHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

/** The files under `dir` (recursively) whose bytes contain `phrase` (UTF-8), or that start with SQLite's plain header. */
export function plainFindings(dir: string, phrase: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const bytes = readFileSync(p);
        if (bytes.includes(Buffer.from(phrase, "utf8"))) found.push(`${relative(dir, p)}: holds the phrase`);
        if (bytes.subarray(0, 15).toString("latin1") === "SQLite format 3") found.push(`${relative(dir, p)}: a plain SQLite file`);
      }
    }
  };
  walk(dir);
  return found;
}
