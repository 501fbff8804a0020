import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../core/index.ts";

describe("lookup configuration", () => {
  it("starts from the documented defaults: no search provider, fetch_url on, native tools auto, 3 rounds", () => {
    const c = loadConfig({}).lookup;
    expect(c.search.provider).toBeUndefined();
    expect(c.fetch).toMatchObject({ enabled: true, maxBytes: 2_000_000, allowLoopback: false });
    expect(c.tools).toEqual({ modes: {}, default: "auto", rounds: 3 });
    expect(c.feeds).toMatchObject({ urls: [], cron: "*/30 * * * *", retentionDays: 30 });
    expect(c.reflectionNews.enabled).toBe(false);
  });

  it("picks the search provider from the settings present, SearXNG before Brave, unless one is chosen", () => {
    expect(loadConfig({ BRAVE_SEARCH_API_KEY: "k" }).lookup.search.provider).toBe("brave");
    expect(loadConfig({ BRAVE_SEARCH_API_KEY: "k", SEARXNG_URL: "http://127.0.0.1:8888" }).lookup.search.provider).toBe("searxng");
    expect(loadConfig({ BRAVE_SEARCH_API_KEY: "k", SEARXNG_URL: "http://127.0.0.1:8888", LILO_SEARCH_PROVIDER: "brave" }).lookup.search.provider).toBe("brave");
  });

  it("refuses a chosen search provider whose setting is missing", () => {
    expect(() => loadConfig({ LILO_SEARCH_PROVIDER: "searxng" })).toThrow(/SEARXNG_URL/);
  });

  it("reads per-provider tool modes, refusing an unknown mode", () => {
    expect(loadConfig({ LILO_NATIVE_TOOLS: "markers, anthropic=native" }).lookup.tools).toMatchObject({ default: "markers", modes: { anthropic: "native" } });
    expect(() => loadConfig({ LILO_NATIVE_TOOLS: "sometimes" })).toThrow(ConfigError);
  });

  it("reads the feed list without duplicates, refusing a feed that is not http", () => {
    expect(loadConfig({ LILO_FEEDS: "https://a.example/feed, https://b.example/atom https://a.example/feed" }).lookup.feeds.urls).toEqual([
      "https://a.example/feed",
      "https://b.example/atom",
    ]);
    expect(() => loadConfig({ LILO_FEEDS: "ftp://x/feed" })).toThrow(/LILO_FEEDS/);
  });
});
