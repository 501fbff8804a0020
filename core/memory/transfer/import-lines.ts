import { z } from "zod";
import { IMPORT_STORES, type ImportStore } from "./import-stores.ts";

/**
 * The line format `lilo import` reads: what `lilo export` writes. Every
 * store it exports comes back field for field; `id` and `supersededAt` are
 * accepted and ignored (ids are the new database's; only live rows are
 * exported). The chat log is not importable (it is Lilo's record of what
 * was said, not memory to load).
 */

export { IMPORT_STORES, type ImportStore };

const when = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);
const base = {
  text: z.string().trim().min(1),
  createdAt: when.optional(),
  userId: z.string().trim().min(1).optional(),
  id: z.number().optional(),
  supersededAt: z.string().optional(),
};

/** One line per store, as zod schemas (strict: an unknown field is refused, not silently dropped). */
const LINE = z.discriminatedUnion("store", [
  z.strictObject({ store: z.literal("notes"), ...base, kind: z.enum(["fact", "content"]).optional() }),
  z.strictObject({ store: z.literal("important"), ...base, weight: z.number().int().optional() }),
  z.strictObject({ store: z.literal("thoughts"), ...base, origin: z.string().min(1).optional(), questions: z.string().optional() }),
  z.strictObject({ store: z.literal("diary"), ...base, day: z.string().optional() }),
  z.strictObject({ store: z.literal("profile"), ...base, category: z.string().trim().min(1) }),
  z.strictObject({ store: z.literal("rules"), ...base, enabled: z.boolean().optional() }),
  z.strictObject({
    store: z.literal("topics"),
    ...base,
    kind: z.enum(["followup", "concern"]).optional(),
    status: z.enum(["open", "done", "dropped", "queued"]).optional(),
    dueAt: when.optional(),
    doneAt: when.optional(),
  }),
]);

/** A validated import line with the defaults filled in. */
export type ImportLine = z.infer<typeof LINE> & { userId: string; createdAt: string; line: number };

/** A line that cannot be imported, with the reason. */
export interface RefusedLine {
  line: number;
  store: string;
  reason: string;
}

/** Parses and validates a whole file's text; nothing is written. */
export function parseImportText(text: string, defaults: { store: ImportStore; userId: string; now: string }): { lines: ImportLine[]; refused: RefusedLine[] } {
  const lines: ImportLine[] = [];
  const refused: RefusedLine[] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    if (!raw.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      refused.push({ line: i + 1, store: "?", reason: `not JSON (${(err as Error).message})` });
      continue;
    }
    const withStore = json && typeof json === "object" && !Array.isArray(json) ? { store: defaults.store, ...(json as object) } : json;
    const parsed = LINE.safeParse(withStore);
    if (!parsed.success) {
      const store = (withStore as { store?: unknown } | null)?.store;
      refused.push({
        line: i + 1,
        store: typeof store === "string" ? store : "?",
        reason: parsed.error.issues.map((x) => `${x.path.join(".") || "line"}: ${x.message}`).join("; "),
      });
      continue;
    }
    const l = parsed.data;
    lines.push({ ...l, userId: l.userId ?? defaults.userId, createdAt: l.createdAt ? new Date(l.createdAt).toISOString() : defaults.now, line: i + 1 });
  }
  return { lines, refused };
}
