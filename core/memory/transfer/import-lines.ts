import { PROVENANCE_KINDS } from "../../foundation/store/provenance.ts";
import { z } from "zod";
import { IMPORT_STORES, type ImportStore } from "./import-stores.ts";
import { STORE_VALUES, describeValueIssues, storeTime } from "../../foundation/store/values.ts";
import { LiloError } from "../../foundation/errors.ts";
import { REMINDER_SOURCES, REMINDER_STATES } from "../../foundation/store/reminders.ts";
import { readRecurrence } from "../../foundation/util/recurrence-rule.ts";
import { USER_ID_RULE, dueTime, importUserId, isUserId, pastTime, quoteValue, textLength, type ImportLimits } from "./import-limits.ts";

/**
 * The line format `lilo import` reads: what `lilo export` writes. Every
 * store it exports comes back field for field; `id` and `supersededAt` are
 * accepted and ignored (ids are the new database's; only live rows are
 * exported). The chat log is not importable (it is Lilo's record of what
 * was said, not memory to load). Each store's fields follow the same value
 * rules as its writer (core/foundation/store/values.ts) and the import's
 * limits (import-limits.ts): a line no store would write, or that breaks a
 * limit, is refused with the rule it breaks.
 */

export { IMPORT_STORES, type ImportStore };

/**
 * The line schema for one import: the stores' value rules, and the import's
 * limits (import-limits.ts) on every text, time and user id.
 */
function lineSchema(limits: ImportLimits) {
  const past = (field: string) => storeTime.superRefine(pastTime(field, limits));
  const base = {
    createdAt: past("createdAt").optional(),
    userId: importUserId.optional(),
    id: z.number().optional(),
    supersededAt: z.string().optional(),
    // Where the memory came from and whom it is about, as `lilo export` writes them.
    provenance: z.enum(PROVENANCE_KINDS, { error: `provenance must be one of ${PROVENANCE_KINDS.join(", ")}` }).optional(),
    provenanceRef: z.string().max(MAX_REF_CHARS, `provenanceRef must be at most ${MAX_REF_CHARS} characters`).optional(),
    about: z.string().trim().min(1).max(MAX_ABOUT_CHARS, `about must be at most ${MAX_ABOUT_CHARS} characters`).optional(),
  };
  const text = <S extends keyof typeof STORE_VALUES>(store: S) => STORE_VALUES[store].shape.text.superRefine(textLength("text", limits));
  const { topics, diary, thoughts } = STORE_VALUES;
  /** One line per store (strict: an unknown field is refused, not silently dropped). */
  return z.discriminatedUnion("store", [
    z.strictObject({ store: z.literal("notes"), ...base, ...STORE_VALUES.notes.shape, text: text("notes") }),
    z.strictObject({ store: z.literal("important"), ...base, ...STORE_VALUES.important.shape, text: text("important") }),
    z.strictObject({
      store: z.literal("thoughts"),
      ...base,
      ...thoughts.shape,
      text: text("thoughts"),
      questions: thoughts.shape.questions.superRefine(textLength("questions", limits)),
    }),
    z.strictObject({ store: z.literal("diary"), ...base, ...diary.shape, text: text("diary"), day: diary.shape.day.superRefine(pastTime("day", limits)) }),
    z.strictObject({ store: z.literal("profile"), ...base, ...STORE_VALUES.profile.shape, text: text("profile") }),
    z.strictObject({ store: z.literal("rules"), ...base, ...STORE_VALUES.rules.shape, text: text("rules") }),
    z.strictObject({
      store: z.literal("topics"),
      ...base,
      ...topics.shape,
      text: text("topics"),
      dueAt: topics.shape.dueAt.superRefine(dueTime("dueAt", limits)),
      doneAt: topics.shape.doneAt.superRefine(pastTime("doneAt", limits)),
    }),
    z.strictObject({ store: z.literal("reminders"), ...base, ...reminderFields(limits) }),
  ]);
}

/** The fields of an exported reminder; the chat-log ids and the last change are accepted and not carried (they belong to the old database). */
function reminderFields(limits: ImportLimits) {
  const oneOf = (what: string, values: readonly string[]) => ({ error: `reminder ${what} must be one of ${values.join(", ")}` });
  return {
    text: z.string({ error: "text must be text" }).trim().min(1, "text must not be empty").superRefine(textLength("text", limits)),
    timeZone: z
      .string({ error: "timeZone must be text" })
      .refine(isTimeZone, { error: (iss) => `timeZone ${quoteValue(String(iss.input))} is not a time zone (e.g. Europe/Berlin)` }),
    recurrence: z
      .string()
      .nullable()
      .optional()
      .refine((r) => r == null || readRecurrence(r) !== undefined, "recurrence is not a rule Lilo knows (as lilo export writes it)"),
    dueAt: storeTime.superRefine(dueTime("dueAt", limits)),
    state: z.enum(REMINDER_STATES, oneOf("state", REMINDER_STATES)).optional(),
    transport: z.string().trim().min(1).max(MAX_ABOUT_CHARS, `transport must be at most ${MAX_ABOUT_CHARS} characters`),
    chatId: z.string().trim().min(1).max(MAX_REF_CHARS, `chatId must be at most ${MAX_REF_CHARS} characters`),
    source: z.enum(REMINDER_SOURCES, oneOf("source", REMINDER_SOURCES)).optional(),
    deliveredCount: z.number().int().min(0).optional(),
    lastDueAt: storeTime.superRefine(pastTime("lastDueAt", limits)).nullable().optional(),
    sourceMessageId: z.number().optional(),
    lastMessageId: z.number().optional(),
    updatedAt: z.string().optional(),
  };
}

/** Is this an IANA time zone the runtime knows? */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** A URL or a message id says where a memory came from; longer is no reference. */
const MAX_REF_CHARS = 2_048;
/** Whom a memory is about: "user", "lilo" or a name. */
const MAX_ABOUT_CHARS = 100;

/** A validated import line with the defaults filled in. */
export type ImportLine = z.infer<ReturnType<typeof lineSchema>> & { userId: string; createdAt: string; line: number };

/** A line that cannot be imported, with the reason. */
export interface RefusedLine {
  line: number;
  store: string;
  reason: string;
}

/** Parses and validates a whole file's text; nothing is written. */
export function parseImportText(
  text: string,
  defaults: { store: ImportStore; userId: string; now: string; maxTextChars: number },
): { lines: ImportLine[]; refused: RefusedLine[] } {
  if (!isUserId(defaults.userId)) throw new LiloError("invalid-input", `The user ${quoteValue(defaults.userId)} is not a user id: use ${USER_ID_RULE}`);
  const LINE = lineSchema({ maxTextChars: defaults.maxTextChars, now: defaults.now });
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
