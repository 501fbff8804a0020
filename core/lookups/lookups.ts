import type { Clock } from "../foundation/ports/clock.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import type { SearchResult, WebSearch } from "../foundation/ports/web-search.ts";
import type { LookupConfig } from "../foundation/config/lookups.ts";
import type { News } from "./news.ts";
import type { FeedItem } from "../foundation/store/feeds.ts";
import type { SearchLog } from "../foundation/store/search-log.ts";
import { LookupError, describeError } from "../foundation/errors.ts";
import type { ReadPage } from "./web/read-page.ts";

/** One kind of lookup: web search, reading one page (fetch_url), searching the news feeds. */
export type LookupName = "search" | "fetch" | "news";

/**
 * Looking things up outside Lilo's memory: web search (logged), reading one
 * page, searching the news feeds. Markers and native tools both end here,
 * so they behave the same.
 */
export class Lookups {
  constructor(
    private readonly deps: { config: LookupConfig; clock: Clock; logger: Logger; searchLog: SearchLog; news: News; webSearch: WebSearch | undefined },
  ) {}

  /** Which lookups this setup can answer; the markers and tools of the others are not advertised. */
  offered(): LookupName[] {
    return [
      ...(this.deps.webSearch ? (["search"] as const) : []),
      ...(this.deps.config.fetch.enabled ? (["fetch"] as const) : []),
      ...(this.deps.news.available() ? (["news"] as const) : []),
    ];
  }

  /** The configured search provider's name, if any. */
  get searchProvider(): string | undefined {
    return this.deps.webSearch?.provider;
  }

  /** Runs one web search for `userId` and logs it (a failed search is logged with no result count). */
  async search(userId: string, query: string): Promise<SearchResult[]> {
    const { webSearch, searchLog, clock, config } = this.deps;
    if (!webSearch) throw new LookupError("refused", "no web search provider is configured");
    let results: SearchResult[] | undefined;
    try {
      results = await webSearch.search(query, { limit: config.search.results });
      return results;
    } finally {
      searchLog.add({ userId, query, provider: webSearch.provider, resultCount: results ? results.length : null, at: clock.now().toISOString() });
      this.deps.logger.info("web search", { userId, provider: webSearch.provider, results: results?.length ?? "failed" });
    }
  }

  /** fetch_url: one page as readable text, or a LookupError saying why not. */
  async read(url: string): Promise<ReadPage> {
    const { fetch } = this.deps.config;
    if (!fetch.enabled) throw new LookupError("refused", "reading pages is switched off (LILO_FETCH_URL_ENABLED=false)");
    try {
      // linkedom and Readability load on the first fetch_url, not with every process.
      const { readPage } = await import("./web/read-page.ts");
      return await readPage(url, fetch);
    } catch (err) {
      this.deps.logger.info("fetch_url did not read the page", { error: describeError(err) });
      throw err;
    }
  }

  /** `[NEWS:]`: matching feed items, newest first. */
  news(query: string): FeedItem[] {
    return this.deps.news.search(query);
  }
}
