import { InvalidArgumentError, type Command } from "commander";
import { formatMoney, formatTokens, spendOfLimit, type UsageGrouping, type UsageRow, type UsageSummary, type UsageTotals } from "../../core/internal.ts";
import { type Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";

const GROUPINGS: readonly UsageGrouping[] = ["role", "model", "user", "day", "month"];

function parseGrouping(value: string): UsageGrouping {
  if ((GROUPINGS as readonly string[]).includes(value)) return value as UsageGrouping;
  throw new InvalidArgumentError(`use one of ${GROUPINGS.join(", ")}`);
}

/**
 * `lilo usage`: what model calls cost, from the usage ledger (this month
 * unless --from/--to say otherwise), grouped by role, model, user, day or
 * month; `--json` prints one object with `total` beside the groups.
 */
export function registerUsage(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("usage")
    .description("what the model calls cost: tokens (input, cached, output) and money, by role, model, user or day; budgets")
    .option("--by <grouping>", `group by ${GROUPINGS.join(", ")} (default role)`, parseGrouping)
    .option("--from <day>", "first local day, YYYY-MM-DD (default: the first of this month)")
    .option("--to <day>", "last local day, YYYY-MM-DD (default: today)")
    .option("--json", "print one JSON object: range, currency, total and groups")
    .action((o: { by?: UsageGrouping; from?: string; to?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const overview = lilo.usage.overview();
        const from = o.from ?? (o.to ? undefined : `${overview.month.month}-01`);
        const summary = lilo.usage.summary({ from, to: o.to ?? (o.from ? undefined : overview.today.day), by: o.by ?? "role" });
        if (o.json) {
          io.out(JSON.stringify(summary));
          return 0;
        }
        for (const line of usageTable(summary)) io.out(line);
        for (const line of budgetLines(lilo)) io.out(line);
        return 0;
      }),
    );
}

/** The report as an aligned table with a total line and what the numbers leave out. */
export function usageTable(s: UsageSummary): string[] {
  const money = (t: UsageTotals) => (t.cost === null ? "–" : formatMoney(t.cost, s.currency, "en"));
  const tok = (n: number) => formatTokens(n, "en");
  const row = (key: string, t: UsageTotals) =>
    [
      key.padEnd(28),
      String(t.calls).padStart(6),
      tok(t.inputTokens).padStart(9),
      tok(t.cachedInputTokens).padStart(9),
      tok(t.outputTokens).padStart(9),
      money(t).padStart(12),
    ].join(" ");
  const range = `${s.from ?? "the beginning"} … ${s.to ?? "today"}`;
  const lines = [
    `Usage ${range}, by ${s.by} (${s.currency})`,
    [s.by.padEnd(28), "calls", "input", "cached", "output", "cost"].map((h, i) => (i ? h.padStart(i === 5 ? 12 : i === 1 ? 6 : 9) : h)).join(" "),
  ];
  if (!s.groups.length) lines.push("(no model calls in this range)");
  lines.push(...s.groups.map((r: UsageRow) => row(r.key, r)), row("total", s.total));
  if (s.total.unpricedCalls) lines.push(`${s.total.unpricedCalls} call(s) of models without a price count tokens only (set LILO_MODEL_PRICES).`);
  if (s.total.estimatedCalls) lines.push(`${s.total.estimatedCalls} call(s) estimated: the server sent no usage.`);
  return lines;
}

/** The budgets against today's and this month's spend, when any is set. */
export function budgetLines(lilo: Lilo): string[] {
  const b = lilo.usage.budget();
  const currency = lilo.config.costs.currency;
  return (["day", "month"] as const).flatMap((p) => {
    const period = b[p];
    if (!period) return [];
    const state = period.share >= 1 ? " — spent: background jobs stopped" : period.share >= 0.8 ? " — over 80 %" : "";
    return [
      `Budget ${p === "day" ? "today" : "this month"}: ${spendOfLimit(period.spent, period.limit, currency, "en")} (${Math.floor(period.share * 100)} %)${state}`,
    ];
  });
}

/** One line for `lilo status`: today's calls, tokens and cost, and the day's budget when one is set. */
export function todaysSpend(lilo: Lilo): string {
  const { today, currency } = lilo.usage.overview();
  const t = today.total;
  const cost = t.cost === null ? "no price known" : formatMoney(t.cost, currency, "en");
  const budget = budgetLines(lilo)[0];
  return `${"spend today".padEnd(34)} ${t.calls} calls, ${formatTokens(t.inputTokens, "en")} in (${formatTokens(t.cachedInputTokens, "en")} cached) / ${formatTokens(t.outputTokens, "en")} out, ${cost}${budget ? `; ${budget}` : ""}`;
}
