import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

/** Every .ts and .tsx file of the outer layers: adapters, jobs, the CLI and the root entry points. */
function outerFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return /\.tsx?$/.test(path) ? [path] : [];
    });
  const rootFiles = readdirSync(ROOT)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".config.ts"))
    .map((f) => join(ROOT, f));
  return [...["adapters", "jobs", "admin-cli"].flatMap((d) => walk(join(ROOT, d))), ...rootFiles];
}

/** Lines of the outer layers matching a rule, as "file:line: text". */
function offences(pattern: RegExp): string[] {
  return outerFiles().flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => (pattern.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe("architecture: adapters, jobs and the CLI see only Lilo's use-case API", () => {
  it("never touch the database, the stores or store rows", () => {
    expect(offences(/\.db\b|\.stores\b|rows\./)).toEqual([]);
  });

  it("import nothing of the core but core/index.ts and core/internal.ts: values, types and dynamic imports alike", () => {
    const core = offences(/(\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)"(\.\.?\/)+core\/(?!(index|internal)\.ts")/);
    expect(core).toEqual([]);
  });

  // SQL itself: test/architecture/sql-in-store.test.ts scans these layers and core alike.
  it("never import the store layer, the composition root, the SQLite driver or the test helpers", () => {
    expect(offences(/from\s+"[./]*core\/(foundation\/store\/|api\/create-lilo\.ts|memory\/memory\.ts)|test\/helpers\/|better-sqlite3/)).toEqual([]);
  });
});
