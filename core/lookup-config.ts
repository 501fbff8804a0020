import type { z } from "zod";
import type { envSchema } from "./config-env.ts";
import { ConfigError } from "./errors.ts";

/** How a provider's chat model looks things up: native tool calls, markers, or native with fallback. */
export type ToolMode = "auto" | "native" | "markers";

/** Web search, reading pages, news feeds and native tools (SPEC §5): the `lookup` part of LiloConfig. */
export interface LookupConfig {
  /** The web search provider in force; undefined = no web search (the marker is not advertised). */
  search: {
    provider: "searxng" | "brave" | undefined;
    searxngUrl: string | undefined;
    braveApiKey: string | undefined;
    braveUrl: string;
    results: number;
    timeoutMs: number;
  };
  /** fetch_url: caps, and the loopback switch the tests need for their fake servers. */
  fetch: { enabled: boolean; maxBytes: number; timeoutMs: number; maxChars: number; allowLoopback: boolean };
  /** Feeds from LILO_FEEDS (more can be added with `lilo feeds add`), how often they are fetched, how long items stay. */
  feeds: { urls: string[]; cron: string; retentionDays: number; results: number };
  /** Reflection may read the newest feed items (off by default). */
  reflectionNews: { enabled: boolean; items: number };
  /** Per provider name, or `default` for all others; `rounds` bounds the tool loop of one turn. */
  tools: { modes: Record<string, ToolMode>; default: ToolMode; rounds: number };
}

/** The hosted Brave Search API; BRAVE_SEARCH_URL only changes it for tests or a proxy. */
export const BRAVE_DEFAULT_URL = "https://api.search.brave.com";

/** Builds the lookup settings from the validated variables. */
export function lookupConfig(e: z.infer<typeof envSchema>): LookupConfig {
  const provider = e.LILO_SEARCH_PROVIDER ?? (e.SEARXNG_URL ? "searxng" : e.BRAVE_SEARCH_API_KEY ? "brave" : undefined);
  if (provider === "searxng" && !e.SEARXNG_URL) throw new ConfigError("LILO_SEARCH_PROVIDER=searxng needs SEARXNG_URL (e.g. http://127.0.0.1:8888)");
  if (provider === "brave" && !e.BRAVE_SEARCH_API_KEY) throw new ConfigError("LILO_SEARCH_PROVIDER=brave needs BRAVE_SEARCH_API_KEY");
  return {
    search: {
      provider,
      searxngUrl: e.SEARXNG_URL,
      braveApiKey: e.BRAVE_SEARCH_API_KEY,
      braveUrl: e.BRAVE_SEARCH_URL ?? BRAVE_DEFAULT_URL,
      results: e.LILO_SEARCH_RESULTS,
      timeoutMs: e.LILO_SEARCH_TIMEOUT_MS,
    },
    fetch: {
      enabled: e.LILO_FETCH_URL_ENABLED,
      maxBytes: e.LILO_FETCH_MAX_BYTES,
      timeoutMs: e.LILO_FETCH_TIMEOUT_MS,
      maxChars: e.LILO_FETCH_MAX_CHARS,
      allowLoopback: e.LILO_FETCH_ALLOW_LOOPBACK,
    },
    feeds: { urls: parseFeeds(e.LILO_FEEDS), cron: e.LILO_FEEDS_CRON, retentionDays: e.LILO_FEEDS_RETENTION_DAYS, results: e.LILO_NEWS_RESULTS },
    reflectionNews: { enabled: e.LILO_REFLECTION_NEWS, items: e.LILO_REFLECTION_NEWS_ITEMS },
    tools: { ...parseToolModes(e.LILO_NATIVE_TOOLS), rounds: e.LILO_TOOL_ROUNDS },
  };
}

/** "https://a/feed.xml, https://b/atom" → the URLs; each must be http(s). */
function parseFeeds(raw: string): string[] {
  const urls = raw.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);
  for (const u of urls) {
    if (!/^https?:\/\//i.test(u) || !URL.canParse(u)) throw new ConfigError(`LILO_FEEDS: "${u}" is not an http(s) URL`);
  }
  return [...new Set(urls)];
}

const MODES: readonly ToolMode[] = ["auto", "native", "markers"];

/** "auto" | "markers,anthropic=native" → a default mode and per-provider modes. */
function parseToolModes(raw: string): { modes: Record<string, ToolMode>; default: ToolMode } {
  const modes: Record<string, ToolMode> = {};
  let fallback: ToolMode = "auto";
  for (const part of raw.split(",").map((s) => s.trim()).filter(Boolean)) {
    const idx = part.indexOf("=");
    const mode = (idx < 0 ? part : part.slice(idx + 1)).trim().toLowerCase() as ToolMode;
    if (!MODES.includes(mode)) throw new ConfigError(`LILO_NATIVE_TOOLS: "${part}" — use auto, native or markers, optionally per provider (e.g. markers,anthropic=native)`);
    if (idx < 0) fallback = mode;
    else modes[part.slice(0, idx).trim()] = mode;
  }
  return { modes, default: fallback };
}
