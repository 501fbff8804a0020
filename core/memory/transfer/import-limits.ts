/**
 * The limits of `lilo import` beyond the stores' value rules: how long a
 * text may be, which times are believable, and what a user id looks like.
 * A file is a thing a person or a script wrote, so it can hold what no chat
 * could: a 10 MB note, the year 9999, a user id of 10 KB with markup. Each
 * limit is checked for every line before anything is written, and a line
 * that breaks one is refused with the limit in words (docs/memory.md).
 */
import { z } from "zod";

/** The limits one import is checked against. */
export interface ImportLimits {
  /** The longest text: the chat's limit (LILO_MAX_INPUT_CHARS), so an imported memory is no longer than a message Lilo reads whole. */
  maxTextChars: number;
  /** Now (ISO): the latest believable time of something that happened is one day after it (a clock or time zone a little ahead). */
  now: string;
}

/** The earliest believable time: the Unix epoch; nothing Lilo remembers is older than the computers that kept it. */
export const EARLIEST_TIME = "1970-01-01T00:00:00.000Z";
/** A follow-up may lie ahead, but not more than this many years (a topic due in the year 9999 never comes up). */
export const MAX_DUE_YEARS = 10;
const DAY_MS = 86_400_000;

/** A name Lilo may be given for a user (the part after "=" in an allow-list, LILO_TERMINAL_USER): letters, digits, ".", "_", "-". */
const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}._-]{0,63}$/u;
/** Telegram's numeric user id, as the allow-list names it without "=user": `telegram:<digits>` (ids have at most 52 bits). */
const TELEGRAM = /^telegram:[1-9]\d{0,15}$/;
/** A Matrix user id (`@localpart:server`, the spec's grammar for user ids, at most 255 characters), as the allow-list names it: `matrix:@…`. */
const MATRIX_ID = /^@[a-z0-9._=/+-]+:(?:[A-Za-z0-9.-]{1,255}|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
const MATRIX_MAX = 255;

/** The rule of user ids, in words (the refusal quotes it). */
export const USER_ID_RULE = `telegram:<digits>, matrix:@name:server (the Matrix id at most ${MATRIX_MAX} characters) or a name of at most 64 letters, digits, ".", "_" and "-"`;

/** Is `id` a user id of a shape Lilo's adapters use? */
export function isUserId(id: string): boolean {
  if (id.startsWith("telegram:")) return TELEGRAM.test(id);
  if (id.startsWith("matrix:")) {
    const mxid = id.slice("matrix:".length);
    return mxid.length <= MATRIX_MAX && MATRIX_ID.test(mxid);
  }
  return NAME.test(id);
}

/** A short, printable quote of a refused value (it may be 10 KB of markup). */
export function quoteValue(value: string, max = 40): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

/** A user id of one of the shapes Lilo uses (`isUserId`). */
export const importUserId = z.string({ error: "userId must be text" }).refine(isUserId, {
  error: (iss) => `userId ${quoteValue(String(iss.input))} (${String(iss.input).length} characters) is not a user id: use ${USER_ID_RULE}`,
});

/** A check that a text is no longer than the chat's limit. */
export function textLength(field: string, limits: ImportLimits) {
  return (value: string | null | undefined, ctx: z.RefinementCtx) => {
    if (typeof value !== "string" || value.length <= limits.maxTextChars) return;
    ctx.addIssue({
      code: "custom",
      message: `${field} has ${value.length} characters; at most ${limits.maxTextChars} are imported (LILO_MAX_INPUT_CHARS, the chat's limit)`,
    });
  };
}

/** The day after `now`: the latest believable time of something that happened. */
const latestPast = (limits: ImportLimits) => new Date(Date.parse(limits.now) + DAY_MS);

/** The latest believable due time of a topic. */
const latestDue = (limits: ImportLimits) => {
  const d = new Date(limits.now);
  d.setUTCFullYear(d.getUTCFullYear() + MAX_DUE_YEARS);
  return d;
};

const day = (d: Date) => d.toISOString().slice(0, 10);

/** A check that an already valid time (ISO time or date) lies between 1970 and `latest`. */
function inRange(field: string, latest: (l: ImportLimits) => Date, limits: ImportLimits) {
  return (value: string | null | undefined, ctx: z.RefinementCtx) => {
    if (typeof value !== "string") return;
    const t = Date.parse(value);
    const last = latest(limits);
    if (t >= Date.parse(EARLIEST_TIME) && t <= last.getTime()) return;
    ctx.addIssue({ code: "custom", message: `${field} ${value} is not between ${day(new Date(EARLIEST_TIME))} and ${day(last)}` });
  };
}

/** A time something happened (created, done, a diary's day): from 1970 to one day after now. */
export const pastTime = (field: string, limits: ImportLimits) => inRange(field, latestPast, limits);
/** A topic's due time: from 1970 to MAX_DUE_YEARS years after now. */
export const dueTime = (field: string, limits: ImportLimits) => inRange(field, latestDue, limits);
