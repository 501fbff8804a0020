/** Retrieval scores of the recall benchmark (LoCoMo's scoring, see the data's README). */

/** One question's outcome: its category, its evidence ids and the ranked retrieved ids. */
export interface Outcome {
  category: number;
  evidence: string[];
  ranked: string[];
  ms: number;
  /** The turns on the rendered sheet (`lilo.preview`'s memory blocks), when measured. */
  sheet?: string[];
  /** Estimated tokens of the sheet's memory part. */
  tokens?: number;
  /** The conversation and the question (for `--dump`). */
  sample?: string;
  question?: string;
}

/** Averages of one group of questions. */
export interface Scores {
  n: number;
  r5: number;
  r10: number;
  all10: number;
  mrr: number;
  p50: number;
  p95: number;
}

/** Share of the evidence among the first k retrieved (each retrieved item is exactly one turn). */
function recallAt(o: Outcome, k: number): number {
  const top = new Set(o.ranked.slice(0, k));
  const ev = [...new Set(o.evidence)];
  return ev.filter((e) => top.has(e)).length / ev.length;
}

/** Scores of a group; latency percentiles over its queries. */
export function score(outcomes: Outcome[]): Scores {
  const n = outcomes.length;
  const avg = (f: (o: Outcome) => number) => (n ? outcomes.reduce((s, o) => s + f(o), 0) / n : 0);
  const ev = (o: Outcome) => new Set(o.evidence);
  return {
    n,
    r5: avg((o) => recallAt(o, 5)),
    r10: avg((o) => recallAt(o, 10)),
    all10: avg((o) => (recallAt(o, 10) === 1 ? 1 : 0)),
    mrr: avg((o) => {
      const i = o.ranked.slice(0, 10).findIndex((id) => ev(o).has(id));
      return i < 0 ? 0 : 1 / (i + 1);
    }),
    p50: percentile(
      outcomes.map((o) => o.ms),
      50,
    ),
    p95: percentile(
      outcomes.map((o) => o.ms),
      95,
    ),
  };
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export const CATEGORIES: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" };

/** The table of one search path: overall first, then each category. */
export function table(name: string, outcomes: Outcome[]): string[] {
  const f = (x: number) => x.toFixed(3).replace(/^0/, "");
  const line = (label: string, s: Scores) =>
    `| ${name} | ${label} | ${s.n} | ${f(s.r5)} | ${f(s.r10)} | ${f(s.all10)} | ${f(s.mrr)} | ${s.p50.toFixed(2)} | ${s.p95.toFixed(2)} |`;
  const lines = [line("overall", score(outcomes))];
  for (const [c, label] of Object.entries(CATEGORIES)) lines.push(line(label, score(outcomes.filter((o) => o.category === Number(c)))));
  return lines;
}

export const TABLE_HEAD = ["| path | category | n | R@5 | R@10 | all@10 | MRR | p50 ms | p95 ms |", "|---|---|---|---|---|---|---|---|---|"];

/** Share of the evidence among the turns on the sheet. */
export function sheetReach(o: Outcome): number {
  const on = new Set(o.sheet ?? []);
  const ev = [...new Set(o.evidence)];
  return ev.filter((e) => on.has(e)).length / ev.length;
}

/**
 * The sheet table: evidence on the rendered sheet (share, all of it), turns
 * and memory tokens the sheet used (mean, max), preview latency.
 */
export function sheetTable(outcomes: Outcome[]): string[] {
  const f = (x: number) => x.toFixed(3).replace(/^0/, "");
  const line = (label: string, os: Outcome[]) => {
    const n = os.length;
    const avg = (g: (o: Outcome) => number) => (n ? os.reduce((s, o) => s + g(o), 0) / n : 0);
    const ms = os.map((o) => o.ms);
    return `| ${label} | ${n} | ${f(avg(sheetReach))} | ${f(avg((o) => (sheetReach(o) === 1 ? 1 : 0)))} | ${avg((o) => o.sheet?.length ?? 0).toFixed(1)} | ${avg((o) => o.tokens ?? 0).toFixed(0)} | ${Math.max(0, ...os.map((o) => o.tokens ?? 0))} | ${percentile(ms, 50).toFixed(1)} | ${percentile(ms, 95).toFixed(1)} |`;
  };
  const lines = [line("overall", outcomes)];
  for (const [c, label] of Object.entries(CATEGORIES))
    lines.push(
      line(
        label,
        outcomes.filter((o) => o.category === Number(c)),
      ),
    );
  return lines;
}

export const SHEET_HEAD = [
  "| on the sheet | n | evidence on sheet | all on sheet | turns on sheet | memory tokens mean | max | preview p50 ms | p95 ms |",
  "|---|---|---|---|---|---|---|---|---|",
];
