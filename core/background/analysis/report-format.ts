/**
 * The saved report's text (docs/spec.md §10): a header (date, analyst, mode,
 * selection, size), the analysis, the quote check, and the partial reports
 * as an appendix.
 */
import { ANALYSIS_TEXTS } from "../prompts/analysis.ts";
import type { QuoteCheck } from "./quotes.ts";
import type { AnalysisSelection } from "./selection.ts";
import { approxTokens } from "./chunks.ts";

type Lang = "de" | "en";

/** The selection in words, for the header and the preview. */
export function selectionLabel(s: AnalysisSelection): string {
  const parts = [s.from || s.to ? `${s.from ?? "…"} – ${s.to ?? "…"}` : "all time"];
  parts.push(s.sample ? `even sample of ${s.sample}` : "all conversations");
  if (s.keywords?.length) parts.push(`keywords: ${s.keywords.join(", ")}`);
  if (s.userId) parts.push(`user: ${s.userId}`);
  return parts.join("; ");
}

/** "N conversations, X characters, ≈ Y tokens, P parts, C calls". */
export function sizeLabel(conversations: number, chars: number, parts: number): string {
  const calls = parts > 1 ? parts + 1 : parts;
  return `${conversations} conversations, ${chars.toLocaleString("en-US")} characters, ≈ ${approxTokens(chars).toLocaleString("en-US")} tokens, ${parts} parts, ${calls} calls`;
}

/** What goes into the header. */
interface ReportHeader {
  date: string;
  analyst: string;
  mode: "blind" | "blueprint";
  selection: string;
  size: string;
}

/** The whole report file. With a single part the analysis is that part's answer and there is no appendix. */
export function formatReport(language: Lang, name: string, h: ReportHeader, analysis: string, quotes: QuoteCheck[], partials: string[]): string {
  const t = ANALYSIS_TEXTS[language];
  const rule = "=".repeat(60);
  const out = [
    `${name} — ${t.report}`,
    `${t.date}: ${h.date}`,
    `${t.analyst}: ${h.analyst}`,
    `${t.mode}: ${h.mode === "blueprint" ? t.blueprint : t.blind}`,
    `${t.selection}: ${h.selection}`,
    `${t.size}: ${h.size}`,
    rule,
    "",
    analysis.trim(),
    "",
    rule,
    `${t.quotes}:`,
    ...(quotes.length ? quotes.map((q) => `[${q.verified ? t.verified : t.notFound}] „${q.quote}“`) : [t.noQuotes]),
  ];
  if (partials.length > 1) {
    out.push("", rule, `${t.appendix}:`);
    partials.forEach((p, i) => out.push("", `--- ${t.part} ${i + 1} / ${partials.length} ---`, p.trim()));
  }
  return `${out.join("\n")}\n`;
}
