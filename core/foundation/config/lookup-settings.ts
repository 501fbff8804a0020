import { z } from "zod";
import { bool, cronPattern, opt, positive, positiveInt, setting as s, url } from "./rules.ts";

/** Web search, reading pages, news feeds and native tools; a section of the table in schema.ts. */
export const lookupSettings = z.object({
  search: z.object({
    provider: s(z.enum(["searxng", "brave"]).optional(), {
      env: "LILO_SEARCH_PROVIDER",
      doc: "searxng or brave; default: SearXNG if set, else Brave if a key is set",
      group: "lookup",
      listed: "search.provider",
    }),
    searxngUrl: s(url(), {
      env: "SEARXNG_URL",
      doc: 'self-hosted SearXNG; enable "json" in search.formats of its settings.yml',
      group: "lookup",
      example: "http://127.0.0.1:8888",
    }),
    braveApiKey: s(opt(), { env: "BRAVE_SEARCH_API_KEY", doc: "hosted Brave Search API, free tier", group: "lookup", secret: true }),
    braveUrl: s(url(), { env: "BRAVE_SEARCH_URL", doc: "only for a proxy or tests", group: "lookup", example: "https://api.search.brave.com" }),
    results: s(z.coerce.number().int().min(1).max(20).default(5), {
      env: "LILO_SEARCH_RESULTS",
      doc: "results of one web search the model reads (1 to 20)",
      group: "lookup",
    }),
    timeoutMs: s(positiveInt(10_000), { env: "LILO_SEARCH_TIMEOUT_MS", doc: "per web search", group: "lookup" }),
  }),
  fetch: z.object({
    enabled: s(bool(true), {
      env: "LILO_FETCH_URL_ENABLED",
      doc: "reading one page ([FETCH: url] / fetch_url); private, loopback and metadata addresses are always refused",
      group: "lookup",
      listed: "fetch_url.enabled",
    }),
    maxBytes: s(positiveInt(2_000_000), { env: "LILO_FETCH_MAX_BYTES", doc: "a page is read up to this many bytes", group: "lookup" }),
    timeoutMs: s(positiveInt(10_000), { env: "LILO_FETCH_TIMEOUT_MS", doc: "per page", group: "lookup" }),
    maxChars: s(z.coerce.number().int().min(200).default(4_000), {
      env: "LILO_FETCH_MAX_CHARS",
      doc: "characters of the page text the model gets",
      group: "lookup",
    }),
    /** Test setting: lets fetch_url reach 127.0.0.1/::1 (the fake servers); never set it in production. */
    allowLoopback: s(bool(false), {
      env: "LILO_FETCH_ALLOW_LOOPBACK",
      doc: "tests only: lets fetch_url reach 127.0.0.1; never set it in production",
      group: "lookup",
    }),
  }),
  feeds: z.object({
    urls: s(z.string().default(""), {
      env: "LILO_FEEDS",
      doc: "news feeds for [NEWS: words]; also `lilo feeds add URL`",
      group: "lookup",
      example: "https://example.org/feed.xml,https://example.net/atom.xml",
      listed: "feeds.count",
      show: (c: { lookup: { feeds: { urls: string[] } } }) => String(c.lookup.feeds.urls.length),
    }),
    cron: s(cronPattern("*/30 * * * *"), { env: "LILO_FEEDS_CRON", doc: "when feeds are fetched, local time zone", group: "lookup", listed: "feeds.cron" }),
    retentionDays: s(positive(30), { env: "LILO_FEEDS_RETENTION_DAYS", doc: "feed items older than this are dropped and never found", group: "lookup" }),
    results: s(z.coerce.number().int().min(1).max(20).default(5), { env: "LILO_NEWS_RESULTS", doc: "feed items one [NEWS:] finds (1 to 20)", group: "lookup" }),
  }),
  reflectionNews: z.object({
    enabled: s(bool(false), { env: "LILO_REFLECTION_NEWS", doc: "true: the newest items go on the reflection sheet", group: "lookup" }),
    items: s(positiveInt(5), { env: "LILO_REFLECTION_NEWS_ITEMS", doc: "how many", group: "lookup" }),
  }),
  tools: z.object({
    modes: s(z.string().default("auto"), {
      env: "LILO_NATIVE_TOOLS",
      doc: "native tool calls instead of lookup markers: auto, native or markers, optionally per provider (e.g. markers,anthropic=native)",
      group: "lookup",
      listed: "tools.native",
      show: (c: { lookup: { tools: { default: string; modes: Record<string, string> } } }) =>
        [c.lookup.tools.default, ...Object.entries(c.lookup.tools.modes).map(([p, m]) => `${p}=${m}`)].join(","),
    }),
    rounds: s(z.coerce.number().int().min(1).max(10).default(3), {
      env: "LILO_TOOL_ROUNDS",
      doc: "tool rounds per turn; the call after the last one forbids tools",
      group: "lookup",
      listed: "tools.rounds",
    }),
  }),
});
