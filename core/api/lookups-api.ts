import type { ChatModel } from "../foundation/ports/chat-model.ts";
import type { SearchLogEntry } from "../foundation/store/search-log.ts";
import type { FeedItem } from "../foundation/store/feeds.ts";
import type { FeedFetchReport, News } from "../lookups/news.ts";

/** One feed of `lilo feeds list`: from LILO_FEEDS ("env") or added at run time, with its fetch state. */
interface FeedEntry {
  url: string;
  source: "env" | "added";
  title: string | null;
  lastFetchedAt: string | null;
  lastError: string | null;
}

/** The web searches Lilo ran, for `lilo searches` and tests. */
interface SearchLogApi {
  /** Logs one search; `resultCount` null when the provider failed. Returns the entry's id. */
  add(entry: { userId: string; query: string; provider: string; resultCount: number | null; at: string }): number;
  /** Newest first; one user's searches, or everyone's without `userId`. */
  list(opts?: { userId?: string | undefined; limit?: number }): SearchLogEntry[];
}

/** News feeds (`lilo feeds`, `[NEWS: …]`, reflection material). */
interface NewsApi {
  /** Is there anything to search (a feed configured or added)? */
  available(): boolean;
  /** Feeds from LILO_FEEDS and those added with `lilo feeds add`, with their state. */
  list(): FeedEntry[];
  /** Adds a feed by URL (checked to be http(s)); false when it was there already. */
  add(url: string): boolean;
  /** Removes an added feed and its items; false when there was none. Feeds from LILO_FEEDS are removed there. */
  remove(url: string): boolean;
  /** Fetches every feed once, stores new items, drops items past the retention time; a failing feed does not stop the others. */
  fetchAll(): Promise<FeedFetchReport>;
  /** Matching items within the retention time, newest first. */
  search(query: string, limit?: number): FeedItem[];
  /** The newest items. */
  newest(limit: number): FeedItem[];
  /** How many feed items are stored. */
  itemCount(): number;
}

/** Native tool calling (web search and the like as model tools instead of markers). */
interface ToolsApi {
  /** Does this model get tools in its request now? */
  isNative(model: Pick<ChatModel, "provider" | "model">): boolean;
}

/** Web search log, news feeds and native-tool settings (docs/spec.md §5). */
export interface LookupsApi {
  searchLog: SearchLogApi;
  news: NewsApi;
  tools: ToolsApi;
}

/** The news feeds as callers see them: the feed list, fetching, search, how many items are stored. */
export function newsApi(news: News): NewsApi {
  return {
    available: () => news.available(),
    list: () => news.list(),
    add: (url) => news.add(url),
    remove: (url) => news.remove(url),
    fetchAll: () => news.fetchAll(),
    search: (query, limit) => news.search(query, limit),
    newest: (limit) => news.newest(limit),
    itemCount: () => news.store.count(),
  };
}
