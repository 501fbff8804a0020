import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT, importsOf, tsFiles } from "./import-graph.ts";

const CORE = join(ROOT, "core");

/**
 * The rooms of core/, from the top down. A room may import from any room
 * below it (skipping is fine), never from one above: the arrows run one way,
 * so there is no circle between rooms. `core/index.ts` (the library's entry)
 * and `core/internal.ts` (the outer layers' own) are the doors and sit above
 * them all.
 */
export const ROOMS = ["api", "background", "conversation", "lookups", "memory", "foundation"] as const;
type Room = (typeof ROOMS)[number];

/** The room a core file lives in ("index" for either door, core/index.ts and core/internal.ts). */
export function roomOf(path: string): Room | "index" | undefined {
  const parts = path.split("/");
  if (parts[0] !== "core") return undefined;
  if (parts.length === 2) return parts[1] === "index.ts" || parts[1] === "internal.ts" ? "index" : undefined;
  return (ROOMS as readonly string[]).includes(parts[1]!) ? (parts[1] as Room) : undefined;
}

/** True when an import from `from` to `to` (paths from the repository root) runs up or into the door. */
export function runsUp(from: string, to: string): boolean {
  const a = roomOf(from);
  const b = roomOf(to);
  if (a === undefined || a === "index" || b === undefined || b === a) return false;
  return b === "index" || ROOMS.indexOf(b) < ROOMS.indexOf(a);
}

/** Imports that run up, as "from -> to". */
export function upwardImports(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const from = relative(ROOT, file);
    return importsOf(file).flatMap((to) => (runsUp(from, to) ? [`${from} -> ${to}`] : []));
  });
}

describe("architecture: core is six rooms whose arrows run one way", () => {
  it("shows only the six rooms and the two doors at its top", () => {
    const top = readdirSync(CORE).sort();
    expect(top).toEqual([...ROOMS, "index.ts", "internal.ts"].sort());
  });

  it("imports only downward: api → background → conversation → lookups → memory → foundation", () => {
    expect(upwardImports(tsFiles(CORE))).toEqual([]);
  });

  it("the rule tells up from down", () => {
    expect(runsUp("core/foundation/store/db.ts", "core/memory/memory.ts")).toBe(true);
    expect(runsUp("core/memory/memory.ts", "core/conversation/persona/persona.ts")).toBe(true);
    expect(runsUp("core/conversation/turn/answer.ts", "core/index.ts")).toBe(true);
    expect(runsUp("core/foundation/errors.ts", "core/internal.ts")).toBe(true);
    expect(runsUp("core/background/diary/write-diary.ts", "core/foundation/store/db.ts")).toBe(false);
    expect(runsUp("core/api/create-lilo.ts", "core/background/push/push.ts")).toBe(false);
    expect(runsUp("core/memory/recall/search.ts", "core/memory/memory.ts")).toBe(false);
  });

  it("docs/architecture.md gives every room its row", () => {
    const page = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
    for (const room of ROOMS)
      expect(page, `docs/architecture.md should give core/${room}/ its row`).toMatch(new RegExp(`^\\| \`core/${room}/\` \\| +\\S`, "m"));
  });
});
