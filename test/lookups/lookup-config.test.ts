import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../core/index.ts";

describe("lookup configuration", () => {
  it("has no search provider, fetch_url on, native tools auto and 3 rounds by default", () => {
    const c = loadConfig({}).lookup;
    expect(c.search.provider).toBeUndefined();
    expect(c.fetch).toMatchObject({ enabled: true, maxBytes: 2_000_000, allowLoopback: false });
    expect(c.tools).toEqual({ modes: {}, default: "auto", rounds: 3 });
    expect(c.feeds).toMatchObject({ urls: [], cron: "*/30 * * * *", retentionDays: 30 });
    expect(c.reflectionNews.enabled).toBe(false);
  });

  it("picks the provider from what is set; SearXNG wins; an explicit choice needs its setting", () => {
    expect(loadConfig({ BRAVE_SEARCH_API_KEY: "k" }).lookup.search.provider).toBe("brave");
    expect(loadConfig({ BRAVE_SEARCH_API_KEY: "k", SEARXNG_URL: "http://127.0.0.1:8888" }).lookup.search.provider).toBe("searxng");
    expect(loadConfig({ BRAVE_SEARCH_API_KEY: "k", SEARXNG_URL: "http://127.0.0.1:8888", LILO_SEARCH_PROVIDER: "brave" }).lookup.search.provider).toBe("brave");
    expect(() => loadConfig({ LILO_SEARCH_PROVIDER: "searxng" })).toThrow(/SEARXNG_URL/);
  });

  it("reads per-provider tool modes and feed lists, and names a wrong value", () => {
    expect(loadConfig({ LILO_NATIVE_TOOLS: "markers, anthropic=native" }).lookup.tools).toMatchObject({ default: "markers", modes: { anthropic: "native" } });
    expect(() => loadConfig({ LILO_NATIVE_TOOLS: "sometimes" })).toThrow(ConfigError);
    expect(loadConfig({ LILO_FEEDS: "https://a.example/feed, https://b.example/atom https://a.example/feed" }).lookup.feeds.urls).toEqual([
      "https://a.example/feed",
      "https://b.example/atom",
    ]);
    expect(() => loadConfig({ LILO_FEEDS: "ftp://x/feed" })).toThrow(/LILO_FEEDS/);
  });
});
