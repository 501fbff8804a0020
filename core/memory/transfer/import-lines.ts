import { PROVENANCE_KINDS } from "../../foundation/store/provenance.ts";
import { z } from "zod";
import { IMPORT_STORES, type ImportStore } from "./import-stores.ts";
import { STORE_VALUES, describeValueIssues, storeTime } from "../../foundation/store/values.ts";

/**
 * The line format `lilo import` reads: what `lilo export` writes. Every
 * store it exports comes back field for field; `id` and `supersededAt` are
 * accepted and ignored (ids are the new database's; only live rows are
 * exported). The chat log is not importable (it is Lilo's record of what
 * was said, not memory to load). Each store's fields follow the same value
 * rules as its writer (core/foundation/store/values.ts): a line no store
 * would write is refused, with the rule it breaks.
 */

export { IMPORT_STORES, type ImportStore };

const base = {
  createdAt: storeTime.optional(),
  userId: z.string().trim().min(1).optional(),
  id: z.number().optional(),
  supersededAt: z.string().optional(),
  // Where the memory came from and whom it is about, as `lilo export` writes them.
  provenance: z.enum(PROVENANCE_KINDS, { error: `provenance must be one of ${PROVENANCE_KINDS.join(", ")}` }).optional(),
  provenanceRef: z.string().optional(),
  about: z.string().trim().min(1).optional(),
};

/** One line per store, as zod schemas (strict: an unknown field is refused, not silently dropped). */
const LINE = z.discriminatedUnion("store", [
  z.strictObject({ store: z.literal("notes"), ...base, ...STORE_VALUES.notes.shape }),
  z.strictObject({ store: z.literal("important"), ...base, ...STORE_VALUES.important.shape }),
  z.strictObject({ store: z.literal("thoughts"), ...base, ...STORE_VALUES.thoughts.shape }),
  z.strictObject({ store: z.literal("diary"), ...base, ...STORE_VALUES.diary.shape }),
  z.strictObject({ store: z.literal("profile"), ...base, ...STORE_VALUES.profile.shape }),
  z.strictObject({ store: z.literal("rules"), ...base, ...STORE_VALUES.rules.shape }),
  z.strictObject({ store: z.literal("topics"), ...base, ...STORE_VALUES.topics.shape }),
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
  // A UTF-8 byte-order mark (as some Windows editors write) is not part of the first line.
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  for (const [i, raw] of body.split("\n").entries()) {
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
        reason: describeValueIssues(parsed.error),
      });
      continue;
    }
    const l = parsed.data;
    lines.push({ ...l, userId: l.userId ?? defaults.userId, createdAt: l.createdAt ? new Date(l.createdAt).toISOString() : defaults.now, line: i + 1 });
  }
  return { lines, refused };
}
