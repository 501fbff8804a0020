/**
 * The core's own check of a cron pattern (5 fields, or 6 with seconds first),
 * in the grammar the scheduler's croner reads: `*`, `?`, numbers, ranges
 * `a-b`, steps over the star or a range (`a-b/n`), lists, month and day
 * names, `L`, `LW` and `nW` in the day of month, `nL` and `n#k` in the day of
 * week. A live
 * setting is checked with it before it is stored; the scheduler (jobs/) reads
 * the pattern again with croner, which refuses anything this check lets
 * through that it does not take.
 */

interface Field {
  name: string;
  min: number;
  max: number;
  /** Names that stand for numbers (month and day names), lower case. */
  names?: readonly string[];
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

const SECOND: Field = { name: "second", min: 0, max: 59 };
const FIVE_FIELDS: readonly Field[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS },
  // 0 and 7 are both Sunday.
  { name: "day of week", min: 0, max: 7, names: DAYS },
];

/** Why `pattern` is not a cron pattern, as a sentence's end ("not a cron pattern (hour 99 is not within 0-23)"); undefined when it is one. */
export function cronProblem(pattern: string): string | undefined {
  const parts = pattern.trim().split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6)
    return `not a cron pattern (it has ${parts.length} field${parts.length === 1 ? "" : "s"}; 5, or 6 with seconds first)`;
  const fields = parts.length === 6 ? [SECOND, ...FIVE_FIELDS] : FIVE_FIELDS;
  for (const [i, field] of fields.entries()) {
    const problem = fieldProblem(parts[i]!, field);
    if (problem) return `not a cron pattern (${problem})`;
  }
  return undefined;
}

/** What is wrong with one field, or undefined. */
function fieldProblem(text: string, field: Field): string | undefined {
  const part = text.replaceAll("?", "*");
  if (field.name === "day of month" && /^lw$/i.test(part)) return undefined;
  for (const item of part.split(",")) {
    const problem = itemProblem(item, field);
    if (problem) return problem;
  }
  return undefined;
}

function itemProblem(item: string, field: Field): string | undefined {
  const bad = `${field.name} "${item}" is not a value, a range or a step`;
  if (field.name === "day of month") {
    if (/^l$/i.test(item)) return undefined;
    const weekday = /^(\d+)w$/i.exec(item);
    if (weekday) return valueProblem(weekday[1]!, field);
  }
  if (field.name === "day of week") {
    const nth = /^(\w+?)(#([1-5]|l)|l)$/i.exec(item);
    if (nth) return valueProblem(nth[1]!, field);
    if (item.includes("#")) return `${field.name} "${item}" must be n#1 to n#5 or n#L`;
  }
  const [range, step, ...rest] = item.split("/");
  if (rest.length > 0 || range === undefined) return bad;
  if (step !== undefined) {
    if (!/^\d+$/.test(step) || Number(step) < 1) return `${field.name} step "${step}" is not a whole number of 1 or more`;
    if (range !== "*" && !range.includes("-")) return `${field.name} "${item}": a step follows * or a range (*/n, a-b/n)`;
  }
  if (range === "*") return undefined;
  const ends = range.split("-");
  if (ends.length > 2) return bad;
  for (const end of ends) {
    const problem = valueProblem(end, field);
    if (problem) return problem;
  }
  if (ends.length === 2 && numberOf(ends[0]!, field) > numberOf(ends[1]!, field)) return `${field.name} range "${range}" runs backwards`;
  return undefined;
}

function valueProblem(text: string, field: Field): string | undefined {
  const n = numberOf(text, field);
  if (Number.isNaN(n)) return `${field.name} "${text}" is not a number${field.names ? " or a name" : ""}`;
  if (n < field.min || n > field.max) return `${field.name} ${n} is not within ${field.min}-${field.max}`;
  return undefined;
}

function numberOf(text: string, field: Field): number {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return field.names === MONTHS ? named + 1 : named;
  return /^\d+$/.test(text) ? Number(text) : Number.NaN;
}
