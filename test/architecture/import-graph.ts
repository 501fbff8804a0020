/**
 * The import graph of core/ for the architecture tests: every relative
 * import of every file (static, re-export, type-only and dynamic), and the
 * circles in it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/** The repository root. */
export const ROOT = join(import.meta.dirname, "..", "..");

/** Every .ts and .tsx file under `dir`. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return /\.tsx?$/.test(path) ? [path] : [];
  });
}

/** The relative imports of one file, as paths from the repository root; a type-only import counts like any other. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g)].map((m) => m[1]!);
  return specs.map((s) => {
    const path = normalize(join(dirname(file), s));
    const resolved = existsSync(path) && statSync(path).isFile() ? path : existsSync(`${path}.ts`) ? `${path}.ts` : join(path, "index.ts");
    return relative(ROOT, resolved);
  });
}

/** The graph of `files`: each file (from the repository root) and the files it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((f) => [relative(ROOT, f), importsOf(f)]));
}

/**
 * The import circles of a graph: each strongly connected component of more
 * than one file (or a file importing itself), as its files sorted (Tarjan).
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
