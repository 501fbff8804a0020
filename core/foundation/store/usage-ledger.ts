import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";

/** One model call as the ledger keeps it. */
export interface UsageEntry {
  /** ISO time the answer came. */
  at: string;
  /** The call's calendar day in Lilo's time zone (YYYY-MM-DD). */
  localDay: string;
  userId: string | null;
  provider: string;
  model: string;
  purpose: string;
  /** The whole prompt; `cachedInputTokens` and `cacheWriteTokens` are parts of it. */
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  /** The server sent no usage: the tokens are estimated from the text. */
  estimated: boolean;
  latencyMs: number;
  /** In the configured currency; null when no price is known for the model. */
  cost: number | null;
}

/** How the ledger's rows are grouped in a report. */
export type UsageGrouping = "role" | "model" | "user" | "day" | "month";

/** The sums of a set of calls. */
export interface UsageTotals {
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** Calls whose tokens were estimated (the server sent no usage). */
  estimatedCalls: number;
  /** Sum of the priced calls; null when none had a price. */
  cost: number | null;
  /** Calls without a price (their tokens count, their cost is unknown). */
  unpricedCalls: number;
}

/** One group of a report: the key (a role, "provider:model", a user id, a day or a month) and its sums. */
export interface UsageRow extends UsageTotals {
  key: string;
}

type Raw = {
  key?: string | null;
  calls: number;
  input: number | null;
  cached: number | null;
  output: number | null;
  estimated: number | null;
  cost: number | null;
  priced: number | null;
};

/** SQL for each grouping; a closed list, never text from the caller. */
const GROUP_BY: Record<UsageGrouping, string> = {
  role: "purpose",
  model: "provider || ':' || model",
  user: "COALESCE(user_id, '-')",
  day: "local_day",
  month: "substr(local_day, 1, 7)",
};

const SUMS = `COUNT(*) AS calls, SUM(input_tokens) AS input, SUM(cached_input_tokens) AS cached, SUM(output_tokens) AS output,
  SUM(estimated) AS estimated, SUM(cost) AS cost, COUNT(cost) AS priced`;

/** The usage ledger (table `usage_ledger`): every answered model call, summed by day, month, role, model or user. */
export class UsageLedger {
  constructor(private readonly db: Db) {}

  /** Records one call. */
  add(e: UsageEntry): number {
    const info = prepared(
      this.db,
      `INSERT INTO usage_ledger (created_at, local_day, user_id, provider, model, purpose, input_tokens, cached_input_tokens, cache_write_tokens,
        output_tokens, estimated, latency_ms, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      e.at,
      e.localDay,
      e.userId,
      e.provider,
      e.model,
      e.purpose,
      e.inputTokens,
      e.cachedInputTokens,
      e.cacheWriteTokens,
      e.outputTokens,
      e.estimated ? 1 : 0,
      Math.round(e.latencyMs),
      e.cost,
    );
    return Number(info.lastInsertRowid);
  }

  /** The sums of the calls from `from` to `to` (local days, both included; open ends when undefined). */
  totals(range: { from?: string | undefined; to?: string | undefined }): UsageTotals {
    const { where, args } = dayRange(range);
    const raw = this.db.prepare(`SELECT ${SUMS} FROM usage_ledger ${where}`).get(...args) as Raw;
    return totals(raw);
  }

  /** The calls from `from` to `to`, grouped; biggest spend first (by day or month: in time order). */
  grouped(range: { from?: string | undefined; to?: string | undefined }, by: UsageGrouping): UsageRow[] {
    const { where, args } = dayRange(range);
    const order = by === "day" || by === "month" ? "key" : "cost DESC, input + output DESC, key";
    const rows = this.db.prepare(`SELECT ${GROUP_BY[by]} AS key, ${SUMS} FROM usage_ledger ${where} GROUP BY 1 ORDER BY ${order}`).all(...args) as Raw[];
    return rows.map((r) => ({ key: String(r.key ?? ""), ...totals(r) }));
  }

  /** Every recorded call, oldest first (for `lilo export --usage`). */
  entries(range: { from?: string | undefined; to?: string | undefined } = {}): (UsageEntry & { id: number })[] {
    const { where, args } = dayRange(range);
    const rows = this.db.prepare(`SELECT * FROM usage_ledger ${where} ORDER BY created_at, id`).all(...args) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: r.id as number,
      at: r.created_at as string,
      localDay: r.local_day as string,
      userId: (r.user_id as string | null) ?? null,
      provider: r.provider as string,
      model: r.model as string,
      purpose: r.purpose as string,
      inputTokens: r.input_tokens as number,
      cachedInputTokens: r.cached_input_tokens as number,
      cacheWriteTokens: r.cache_write_tokens as number,
      outputTokens: r.output_tokens as number,
      estimated: r.estimated === 1,
      latencyMs: r.latency_ms as number,
      cost: (r.cost as number | null) ?? null,
    }));
  }

  /** Deletes the calls recorded before `beforeIso`; returns how many. */
  prune(beforeIso: string): number {
    return prepared(this.db, "DELETE FROM usage_ledger WHERE created_at < ?").run(beforeIso).changes;
  }
}

function dayRange(range: { from?: string | undefined; to?: string | undefined }): { where: string; args: string[] } {
  const parts: string[] = [];
  const args: string[] = [];
  if (range.from) {
    parts.push("local_day >= ?");
    args.push(range.from);
  }
  if (range.to) {
    parts.push("local_day <= ?");
    args.push(range.to);
  }
  return { where: parts.length ? `WHERE ${parts.join(" AND ")}` : "", args };
}

function totals(r: Raw): UsageTotals {
  const calls = r.calls ?? 0;
  const priced = r.priced ?? 0;
  return {
    calls,
    inputTokens: r.input ?? 0,
    cachedInputTokens: r.cached ?? 0,
    outputTokens: r.output ?? 0,
    estimatedCalls: r.estimated ?? 0,
    cost: priced > 0 ? roundCost(r.cost ?? 0) : null,
    unpricedCalls: calls - priced,
  };
}

/** Sums of floating costs, rounded to a millionth so reports do not show 0.30000000000000004. */
function roundCost(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
