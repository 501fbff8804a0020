/**
 * `npm run bench:recall -- --data DIR --ablate`: the chat-log search once
 * with every signal on and once with each signal of core/memory/recall/signals.ts
 * off (its weight 0), on data directories filled once per conversation and
 * reopened for each run; the Markdown table of docs/recall.md.
 */
import { SIGNALS, type SignalName } from "../../../core/memory/recall/signals.ts";
import { score, sheetReach, type Outcome } from "./metrics.ts";

/** One run of the ablation: every signal on (`off` undefined) or one off. */
export interface AblationRun {
  off: SignalName | undefined;
  ranked: Outcome[];
  onSheet: Outcome[];
}

/** The runs to make: all on first, then each signal off in the list's order. */
export function ablationRuns(): (SignalName | undefined)[] {
  return [undefined, ...SIGNALS.map((s) => s.name)];
}

const f = (x: number) => x.toFixed(3).replace(/^(-?)0/, "$1");
const delta = (x: number) => (Math.abs(x) < 0.0005 ? "0" : `${x > 0 ? "+" : "−"}${f(Math.abs(x))}`);

/** Share of a question's evidence on the sheet, averaged; undefined when the sheet was not measured (`--no-sheet`). */
function sheetShare(outcomes: Outcome[]): number | undefined {
  return outcomes.length ? outcomes.reduce((s, o) => s + sheetReach(o), 0) / outcomes.length : undefined;
}

/** The table: each signal's kind and weight, the figures with it off, and the change against all on. */
export function ablationTable(runs: AblationRun[]): string[] {
  const figures = (r: AblationRun) => ({ r10: score(r.ranked).r10, mrr: score(r.ranked).mrr, sheet: sheetShare(r.onSheet) });
  const all = runs.find((r) => r.off === undefined);
  if (!all) throw new Error("the ablation needs the run with every signal on");
  const base = figures(all);
  const lines = [
    "| signal off | kind | weight | R@10 | Δ R@10 | MRR | Δ MRR | on the sheet | Δ on the sheet |",
    "|---|---|---|---|---|---|---|---|---|",
    `| none (all on) | | | ${f(base.r10)} | | ${f(base.mrr)} | | ${base.sheet === undefined ? "—" : f(base.sheet)} | |`,
  ];
  for (const r of runs) {
    const signal = SIGNALS.find((s) => s.name === r.off);
    if (!signal) continue;
    const x = figures(r);
    const sheet = x.sheet === undefined || base.sheet === undefined ? "— | —" : `${f(x.sheet)} | ${delta(x.sheet - base.sheet)}`;
    lines.push(
      `| ${signal.name} | ${signal.kind} | ${signal.weight} | ${f(x.r10)} | ${delta(x.r10 - base.r10)} | ${f(x.mrr)} | ${delta(x.mrr - base.mrr)} | ${sheet} |`,
    );
  }
  return lines;
}
