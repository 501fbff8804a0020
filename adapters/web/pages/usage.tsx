/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import { Items } from "../layout.tsx";
import { page } from "../respond.tsx";
import type { UsageRow } from "../sources.ts";
import { href, localTime, type WebDeps, type WebEnv } from "../viewer.ts";
import { ForgottenNotice } from "./forget.tsx";

/** The chart's data: days on the x axis, one series per role (cost when every row has a price, else tokens). */
export function chartData(entries: UsageRow[]): { days: string[]; unit: "usd" | "tokens"; series: { role: string; values: number[] }[] } {
  const days = [...new Set(entries.map((r) => r.day))].sort();
  const roles = [...new Set(entries.map((r) => r.role))].sort();
  const unit = entries.every((r) => r.costUsd !== undefined) ? "usd" : "tokens";
  const value = (r: UsageRow) => (unit === "usd" ? (r.costUsd ?? 0) : r.inputTokens + r.outputTokens);
  const series = roles.map((role) => ({
    role,
    values: days.map((day) => entries.filter((r) => r.day === day && r.role === role).reduce((sum, r) => sum + value(r), 0)),
  }));
  return { days, unit, series };
}

/** Receipts of recent answers, and usage per day and role as a chart (uPlot, from /static) with the numbers as a table. */
export function registerInsight(app: Hono<WebEnv>, { lilo, sources }: WebDeps): void {
  app.get("/usage", async (c) => {
    const v = c.get("viewer");
    const entries = await sources.usage.perDay({ userId: v.operator ? undefined : v.userId, days: 30 });
    const data = chartData(entries);
    // JSON in a non-executed script element: the chart script reads it; "<" is escaped so no text can end the element.
    const json = JSON.stringify(data).replace(/</g, "\\u003c");
    return page(
      c,
      "usage",
      v.t.nav.usage,
      entries.length === 0 ? (
        <>
          <p class="hint">{v.t.usageIntro}</p>
          <p class="empty">{v.t.noUsage}</p>
        </>
      ) : (
        <>
          <p class="hint">
            {v.t.usageIntro} ({data.unit === "usd" ? v.t.cost : v.t.tokens})
          </p>
          <link rel="stylesheet" href="/static/uPlot.min.css" />
          <div id="usage-chart" class="chart" aria-label={v.t.nav.usage}></div>
          <script type="application/json" id="usage-data" dangerouslySetInnerHTML={{ __html: json }}></script>
          <div class="scroll">
            <table class="entries">
              <thead>
                <tr>
                  <th>{v.t.day}</th>
                  <th>{v.t.role}</th>
                  <th>{v.t.calls}</th>
                  <th>{v.t.tokens}</th>
                  <th>{v.t.cost}</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((r) => (
                  <tr>
                    <td class="day">{r.day}</td>
                    <td>{r.role}</td>
                    <td class="num">{r.calls.toLocaleString(v.t.lang)}</td>
                    <td class="num">{(r.inputTokens + r.outputTokens).toLocaleString(v.t.lang)}</td>
                    <td class="num">{r.costUsd === undefined ? "–" : r.costUsd.toFixed(4)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ),
      entries.length === 0 ? undefined : ["/static/uPlot.iife.min.js", "/static/usage-chart.js"],
    );
  });

  app.get("/receipts", async (c) => {
    const v = c.get("viewer");
    const receipts = await sources.receipts.recent(v.userId, 30);
    return page(
      c,
      "receipts",
      v.t.nav.receipts,
      <>
        <p class="hint">{v.t.receiptsIntro}</p>
        <ForgottenNotice c={c} />
        <Items
          list={receipts}
          empty={v.t.noReceipts}
          each={(r) => (
            <li class="item">
              <p class="question">{r.message}</p>
              <ul class="used">
                {r.items.map((i) => (
                  <li>
                    <span class="badge">{lilo.forget.kindName(i.kind)}</span> {i.text}{" "}
                    {i.forgetRef && (
                      <a href={href(v, `/forget/${i.forgetRef}`)} class="danger">
                        {v.t.forget}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
              <div class="meta">{localTime(r.at, v.timeZone)}</div>
            </li>
          )}
        />
      </>,
    );
  });
}
