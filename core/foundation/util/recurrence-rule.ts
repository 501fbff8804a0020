import { z } from "zod";

/** A local clock time "HH:MM". */
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

/**
 * How a recurring reminder repeats, always in the local time of the zone it
 * was set in: every day, Monday to Friday, on given weekdays (0 = Sunday),
 * on a day of the month (a day the month lacks rings on its last day: "every
 * 31st" rings on 30 April and 28 February), or every N hours or days.
 */
export const recurrenceSchema = z.discriminatedUnion("every", [
  z.object({ every: z.literal("day"), at: clockTime }),
  z.object({ every: z.literal("weekday"), at: clockTime }),
  z.object({ every: z.literal("week"), days: z.array(z.number().int().min(0).max(6)).min(1), at: clockTime }),
  z.object({ every: z.literal("month"), day: z.number().int().min(1).max(31), at: clockTime }),
  z.object({
    every: z.literal("hours"),
    n: z
      .number()
      .int()
      .min(1)
      .max(24 * 31),
  }),
  z.object({ every: z.literal("days"), n: z.number().int().min(1).max(366), at: clockTime }),
]);

/** A recurring reminder's rule. */
export type Recurrence = z.infer<typeof recurrenceSchema>;

/** Reads a stored rule (JSON); undefined for a one-shot (null) or a rule this version cannot read. */
export function readRecurrence(json: string | null): Recurrence | undefined {
  if (json === null) return undefined;
  try {
    const parsed = recurrenceSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
