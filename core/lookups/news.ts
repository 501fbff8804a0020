/**
 * The news source (the seed's KINEWS, docs/spec.md §5): RSS and Atom feeds the user
 * configured, fetched on a schedule into SQLite and searched by `[NEWS:]`.
 * Parsing is @extractus/feed-extractor (RSS 2.0, Atom, RDF and JSON Feed,
 * normalised to one entry shape); fetching is ours (size and time caps).
 */
import type { extractFromXml } from "@extractus/feed-extractor";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import type { LookupConfig } from "../foundation/config/lookups.ts";
import { ConfigError, LookupError, describeError } from "../foundation/errors.ts";
import { FeedStore, type FeedItem, type NewItem } from "../foundation/store/feeds.ts";
import { parseHttpUrl, safeFetch } from "./web/safe-fetch.ts";

/** What one fetch of every feed did. */
export interface FeedFetchReport {
  feeds: Array<{ url: string; added: number; error?: string }>;
  pruned: number;
}

/** Feed management and search, as the CLI, the job and the turn use it. */
export class News {
  constructor(
    readonly store: FeedStore,
    private readonly config: LookupConfig,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Is there anything to search (a feed configured or added)? */
  available(): boolean {
    return this.config.feeds.urls.length > 0 || this.store.feeds().length > 0;
  }

  /** Feeds from LILO_FEEDS and those added with `lilo feeds add`, with their state. */
  list(): Array<{ url: string; source: "env" | "added"; title: string | null; lastFetchedAt: string | null; lastError: string | null }> {
    this.syncConfigured();
    const env = new Set(this.config.feeds.urls);
    return this.store
      .feeds()
      .map((f) => ({ url: f.url, source: env.has(f.url) ? "env" : "added", title: f.title, lastFetchedAt: f.lastFetchedAt, lastError: f.lastError }));
  }

  /** Adds a feed by URL (checked to be http(s)); false when it was there already. */
  add(url: string): boolean {
    return this.store.addFeed(parseHttpUrl(url).toString(), this.clock.now().toISOString()).added;
  }

  /** Removes an added feed and its items; feeds from LILO_FEEDS are removed there. */
  remove(url: string): boolean {
    if (this.config.feeds.urls.includes(url)) throw new ConfigError(`${url} comes from LILO_FEEDS; remove it there`);
    return this.store.removeFeed(url);
  }

  /** Fetches every feed once, stores new items, drops items past the retention time. A failing feed does not stop the others. */
  async fetchAll(): Promise<FeedFetchReport> {
    this.syncConfigured();
    const now = this.clock.now();
    const report: FeedFetchReport = { feeds: [], pruned: 0 };
    const cutoff = new Date(now.getTime() - this.config.feeds.retentionDays * 86_400_000).toISOString();
    for (const feed of this.store.feeds()) {
      try {
        const { title, items } = await this.fetchFeed(feed.url);
        // Items past the retention time would be pruned at once and come back with every fetch.
        const fresh = items.filter((i) => !i.publishedAt || i.publishedAt >= cutoff);
        report.feeds.push({ url: feed.url, added: this.store.storeFetch(feed.id, title, fresh, now.toISOString()) });
      } catch (err) {
        this.logger.warn("feed could not be fetched", { url: feed.url, error: describeError(err) });
        this.store.fetchFailed(feed.id, describeError(err), now.toISOString());
        report.feeds.push({ url: feed.url, added: 0, error: describeError(err) });
      }
    }
    report.pruned = this.store.prune(cutoff);
    return report;
  }

  /** `[NEWS: query]`: matching items within the retention time, newest first. */
  search(query: string, limit = this.config.feeds.results): FeedItem[] {
    const since = new Date(this.clock.now().getTime() - this.config.feeds.retentionDays * 86_400_000).toISOString();
    return this.store.search(query, { limit, since });
  }

  /** The newest items (reflection material). */
  newest(limit: number): FeedItem[] {
    return this.store.newest(limit);
  }

  private syncConfigured(): void {
    const now = this.clock.now().toISOString();
    for (const url of this.config.feeds.urls) this.store.addFeed(url, now);
  }

  private async fetchFeed(url: string): Promise<{ title: string | null; items: NewItem[] }> {
    const { fetch: caps } = this.config;
    // The user chose these feeds; a feed on the home network (an RSS bridge) is fine.
    const res = await safeFetch(url, {
      ...caps,
      allowPrivate: true,
      accept: "application/rss+xml,application/atom+xml,application/xml,text/xml;q=0.9,*/*;q=0.5",
    });
    let parsed: ReturnType<typeof extractFromXml>;
    // The feed parser loads on the first fetch, not with every process.
    const { extractFromXml: parse } = await import("@extractus/feed-extractor");
    try {
      parsed = parse(res.body.toString("utf8"), { descriptionMaxLen: 1_000, getExtraEntryFields: (e: Record<string, unknown>) => ({ guid: guidOf(e) }) });
    } catch (err) {
      throw new LookupError("failed", `${url} is not an RSS or Atom feed`, { cause: err });
    }
    if (!parsed?.entries) throw new LookupError("failed", `${url} is not an RSS or Atom feed`);
    const items = parsed.entries.flatMap((e) => {
      const entry = e as typeof e & { guid?: string };
      const title = (entry.title ?? "").trim();
      const link = entry.link?.trim() || null;
      const guid = entry.guid || entry.id || link || title;
      if (!title || !guid) return [];
      const date = entry.published ? new Date(entry.published) : undefined;
      return [
        { guid, url: link, title, summary: (entry.description ?? "").trim(), publishedAt: date && !Number.isNaN(date.getTime()) ? date.toISOString() : null },
      ];
    });
    return { title: parsed.title?.trim() || null, items };
  }
}

/** RSS `<guid>` may be a string or an object with the text inside. */
function guidOf(e: Record<string, unknown>): string | undefined {
  const g = e.guid;
  if (typeof g === "string") return g.trim() || undefined;
  if (g && typeof g === "object" && "#text" in g) return String((g as Record<string, unknown>)["#text"]).trim() || undefined;
  return undefined;
}
