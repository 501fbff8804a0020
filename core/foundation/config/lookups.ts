import type { RawConfig } from "./schema.ts";
import { ConfigError } from "../errors.ts";

/** How a provider's chat model looks things up: native tool calls, markers, or native with fallback. */
export type ToolMode = "auto" | "native" | "markers";

/** Web search, reading pages, news feeds and native tools (docs/spec.md §5): the `lookup` part of LiloConfig. */
export interface LookupConfig {
  /** The web search provider in force; undefined = no web search (the marker is not advertised). */
  search: {
    provider: "searxng" | "brave" | undefined;
    searxngUrl?: string | undefined;
    braveApiKey?: string | undefined;
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
const BRAVE_DEFAULT_URL = "https://api.search.brave.com";

/** Completes the table's `lookup` section: the search provider in force, feed URLs, tool modes. */
export function lookupConfig(raw: RawConfig["lookup"]): LookupConfig {
  const { search } = raw;
  const provider = search.provider ?? (search.searxngUrl ? "searxng" : search.braveApiKey ? "brave" : undefined);
  if (provider === "searxng" && !search.searxngUrl) throw new ConfigError("LILO_SEARCH_PROVIDER=searxng needs SEARXNG_URL (e.g. http://127.0.0.1:8888)");
  if (provider === "brave" && !search.braveApiKey) throw new ConfigError("LILO_SEARCH_PROVIDER=brave needs BRAVE_SEARCH_API_KEY");
  return {
    search: { ...search, provider, braveUrl: search.braveUrl ?? BRAVE_DEFAULT_URL },
    fetch: raw.fetch,
    feeds: { ...raw.feeds, urls: parseFeeds(raw.feeds.urls) },
    reflectionNews: raw.reflectionNews,
    tools: { ...parseToolModes(raw.tools.modes), rounds: raw.tools.rounds },
  };
}

/** "https://a/feed.xml, https://b/atom" → the URLs; each must be http(s). */
function parseFeeds(raw: string): string[] {
  const urls = raw
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
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
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const idx = part.indexOf("=");
    const mode = (idx < 0 ? part : part.slice(idx + 1)).trim().toLowerCase() as ToolMode;
    if (!MODES.includes(mode))
      throw new ConfigError(`LILO_NATIVE_TOOLS: "${part}" — use auto, native or markers, optionally per provider (e.g. markers,anthropic=native)`);
    if (idx < 0) fallback = mode;
    else modes[part.slice(0, idx).trim()] = mode;
  }
  return { modes, default: fallback };
}
