/**
 * The value rules of the stores, one zod schema per store: what a store
 * writer accepts, and so what `lilo import` and every model answer that
 * writes a store must pass too (the store classes check them before they
 * write; the import line format and the extraction answer are built from
 * them). Kept here, in the lowest room, so every layer above can share them;
 * the CHECK constraints in schema.ts are the database's last word on the
 * same enums.
 */
import { z } from "zod";
import { LiloError } from "../errors.ts";

/** The profile's categories (store 2): what extraction, the admin and an import may use. */
export const PROFILE_CATEGORIES = ["person", "work", "projects", "preferences", "relationships", "health", "other"] as const;
/** A note is a fact about the user or what was said (schema.ts: CHECK on notes.kind). */
const NOTE_KINDS = ["fact", "content"] as const;
/** Where a thought came from: noted during a chat, or the quiet reflection. */
const THOUGHT_ORIGINS = ["chat", "reflection"] as const;
/** A topic is a follow-up question or a 🧠 concern (schema.ts: CHECK on topics.kind). */
const TOPIC_KINDS = ["followup", "concern"] as const;
/** A topic's state (schema.ts: CHECK on topics.status). */
const TOPIC_STATUSES = ["open", "done", "dropped", "queued"] as const;
/** An important memory's weight: 1 (default) to 3 (very important), as the extraction prompt asks. */
export const IMPORTANT_WEIGHT = { min: 1, max: 3 } as const;

const oneOf = (what: string, values: readonly string[]) => `${what} must be one of ${values.join(", ")}`;

/** The text every store row has: not empty. */
const storeText = z.string().trim().min(1, "text must not be empty");

/** A time as the stores keep it: an ISO time with offset (or Z), or a bare ISO date. */
export const storeTime = z.union([z.iso.datetime({ offset: true }), z.iso.date()], { error: "must be an ISO time (2026-12-02T18:00:00Z) or date" });

/** A profile category: one of `PROFILE_CATEGORIES`, any case (stored lower case). */
const profileCategory = z
  .string({ error: oneOf("profile category", PROFILE_CATEGORIES) })
  .trim()
  .toLowerCase()
  .pipe(z.enum(PROFILE_CATEGORIES, { error: oneOf("profile category", PROFILE_CATEGORIES) }));

/** An important memory's weight: a whole number from 1 to 3. */
const importantWeight = z
  .number({ error: `important weight must be a whole number from ${IMPORTANT_WEIGHT.min} to ${IMPORTANT_WEIGHT.max}` })
  .int(`important weight must be a whole number from ${IMPORTANT_WEIGHT.min} to ${IMPORTANT_WEIGHT.max}`)
  .min(IMPORTANT_WEIGHT.min, `important weight must be a whole number from ${IMPORTANT_WEIGHT.min} to ${IMPORTANT_WEIGHT.max}`)
  .max(IMPORTANT_WEIGHT.max, `important weight must be a whole number from ${IMPORTANT_WEIGHT.min} to ${IMPORTANT_WEIGHT.max}`);

/** Is `day` (YYYY-MM-DD) a day of the calendar (no 2026-02-30)? */
function isCalendarDay(day: string): boolean {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A diary entry's local day: `YYYY-MM-DD`, a real date. */
const diaryDay = z
  .string({ error: "diary day must be a date YYYY-MM-DD" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "diary day must be a date YYYY-MM-DD", abort: true })
  .refine(isCalendarDay, "diary day must be a real date YYYY-MM-DD");

/** The value fields of each store (besides user, times and ids), as their writers accept them. */
export const STORE_VALUES = {
  notes: z.object({ text: storeText, kind: z.enum(NOTE_KINDS, { error: oneOf("note kind", NOTE_KINDS) }).optional() }),
  important: z.object({ text: storeText, weight: importantWeight.optional() }),
  thoughts: z.object({
    text: storeText,
    origin: z.enum(THOUGHT_ORIGINS, { error: oneOf("thought origin", THOUGHT_ORIGINS) }).optional(),
    questions: z.string({ error: "thought questions must be text" }).nullable().optional(),
  }),
  diary: z.object({ text: storeText, day: diaryDay.nullable().optional() }),
  profile: z.object({ text: storeText, category: profileCategory }),
  rules: z.object({ text: storeText, enabled: z.boolean({ error: "rule enabled must be true or false" }).optional() }),
  topics: z.object({
    text: storeText,
    kind: z.enum(TOPIC_KINDS, { error: oneOf("topic kind", TOPIC_KINDS) }).optional(),
    status: z.enum(TOPIC_STATUSES, { error: oneOf("topic status", TOPIC_STATUSES) }).optional(),
    dueAt: storeTime.optional(),
    doneAt: storeTime.nullable().optional(),
  }),
} as const;

/** A store with value rules. */
type ValueStore = keyof typeof STORE_VALUES;
/** The value fields of one store, after its rules (a profile category in lower case). */
export type StoreValues<S extends ValueStore> = z.infer<(typeof STORE_VALUES)[S]>;

/**
 * One line per broken rule: the rule's own message, prefixed with the field
 * only when the message does not name it already ("text: …", but "profile
 * category must be one of …").
 */
export function describeValueIssues(error: z.ZodError): string {
  return error.issues
    .map((x) => {
      const field = x.path.join(".");
      const last = String(x.path.at(-1) ?? "");
      return !field || x.message.toLowerCase().includes(last.toLowerCase()) ? x.message : `${field}: ${x.message}`;
    })
    .join("; ");
}

/**
 * Checks a store's values before they are written; returns them as the
 * rules leave them. Throws "invalid-input" naming the broken rule, so no
 * writer stores what another would refuse.
 */
export function checkStoreValues<S extends ValueStore>(store: S, values: Record<string, unknown>): StoreValues<S> {
  const parsed = STORE_VALUES[store].safeParse(values);
  if (!parsed.success) throw new LiloError("invalid-input", `Not stored in ${store}: ${describeValueIssues(parsed.error)}`, { cause: parsed.error });
  return parsed.data as StoreValues<S>;
}
