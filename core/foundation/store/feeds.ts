import type { Db } from "./db.ts";

/** A feed Lilo reads. */
interface Feed {
  id: number;
  url: string;
  title: string | null;
  lastFetchedAt: string | null;
  lastError: string | null;
}

/** One stored feed item. */
export interface FeedItem {
  id: number;
  feedTitle: string | null;
  title: string;
  url: string | null;
  summary: string;
  publishedAt: string | null;
}

/** An item as parsed from a feed, before storing. */
export interface NewItem {
  guid: string;
  url: string | null;
  title: string;
  summary: string;
  publishedAt: string | null;
}

type RawItem = { id: number; feed_title: string | null; title: string; url: string | null; summary: string; published_at: string | null };
const toItem = (r: RawItem): FeedItem => ({ id: r.id, feedTitle: r.feed_title, title: r.title, url: r.url, summary: r.summary, publishedAt: r.published_at });

/** Feeds and their items in SQLite: deduplicated by GUID per feed and by URL across feeds, full-text indexed. */
export class FeedStore {
  constructor(private readonly db: Db) {}

  /** Adds a feed (no-op when known); returns its id and whether it is new. */
  addFeed(url: string, now: string): { id: number; added: boolean } {
    const { changes } = this.db.prepare("INSERT INTO feeds (url, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT(url) DO NOTHING").run(url, now, now);
    return { id: (this.db.prepare("SELECT id FROM feeds WHERE url = ?").get(url) as { id: number }).id, added: changes > 0 };
  }

  /** Removes a feed and its items; false when unknown. */
  removeFeed(url: string): boolean {
    return this.db.transaction(() => {
      const feed = this.db.prepare("SELECT id FROM feeds WHERE url = ?").get(url) as { id: number } | undefined;
      if (!feed) return false;
      this.db.prepare("DELETE FROM feed_items WHERE feed_id = ?").run(feed.id);
      this.db.prepare("DELETE FROM feeds WHERE id = ?").run(feed.id);
      return true;
    })();
  }

  feeds(): Feed[] {
    const rows = this.db.prepare("SELECT id, url, title, last_fetched_at, last_error FROM feeds ORDER BY id").all() as Array<{
      id: number;
      url: string;
      title: string | null;
      last_fetched_at: string | null;
      last_error: string | null;
    }>;
    return rows.map((r) => ({ id: r.id, url: r.url, title: r.title, lastFetchedAt: r.last_fetched_at, lastError: r.last_error }));
  }

  /** Stores new items of one fetch in one transaction; returns how many were new. */
  storeFetch(feedId: number, title: string | null, items: NewItem[], now: string): number {
    const byGuid = this.db.prepare("SELECT 1 FROM feed_items WHERE feed_id = ? AND guid = ?");
    const byUrl = this.db.prepare("SELECT 1 FROM feed_items WHERE url = ?");
    const insert = this.db.prepare(
      "INSERT INTO feed_items (feed_id, guid, url, title, summary, published_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    return this.db.transaction(() => {
      let added = 0;
      for (const it of items) {
        // The same story under a new GUID, or in a second feed, is kept once.
        if (byGuid.get(feedId, it.guid) || (it.url && byUrl.get(it.url))) continue;
        insert.run(feedId, it.guid, it.url, it.title, it.summary, it.publishedAt, now, now);
        added++;
      }
      this.db
        .prepare("UPDATE feeds SET title = COALESCE(?, title), last_fetched_at = ?, last_error = NULL, updated_at = ? WHERE id = ?")
        .run(title, now, now, feedId);
      return added;
    })();
  }

  /** Notes a failed fetch on the feed (shown by `lilo feeds list`). */
  fetchFailed(feedId: number, error: string, now: string): void {
    this.db.prepare("UPDATE feeds SET last_error = ?, updated_at = ? WHERE id = ?").run(error, now, feedId);
  }

  /** Deletes items published (or, without a date, stored) before `before`; returns how many. */
  prune(before: string): number {
    return this.db.prepare("DELETE FROM feed_items WHERE COALESCE(published_at, created_at) < ?").run(before).changes;
  }

  /**
   * Items matching the words of `query` (any word, prefixes too, accents
   * ignored), newest first; only items after `since`.
   */
  search(query: string, opts: { limit: number; since?: string }): FeedItem[] {
    const words = query.match(/[\p{L}\p{N}]+/gu) ?? [];
    if (!words.length) return this.newest(opts.limit);
    const match = words.map((w) => `"${w}"*`).join(" OR ");
    const rows = this.db
      .prepare(
        `SELECT i.id, f.title AS feed_title, i.title, i.url, i.summary, i.published_at
         FROM feed_items_fts JOIN feed_items i ON i.id = feed_items_fts.rowid JOIN feeds f ON f.id = i.feed_id
         WHERE feed_items_fts MATCH ? AND COALESCE(i.published_at, i.created_at) >= ?
         ORDER BY COALESCE(i.published_at, i.created_at) DESC, bm25(feed_items_fts) LIMIT ?`,
      )
      .all(match, opts.since ?? "", opts.limit) as RawItem[];
    return rows.map(toItem);
  }

  /** The newest items of all feeds. */
  newest(limit: number): FeedItem[] {
    const rows = this.db
      .prepare(
        `SELECT i.id, f.title AS feed_title, i.title, i.url, i.summary, i.published_at FROM feed_items i JOIN feeds f ON f.id = i.feed_id
         ORDER BY COALESCE(i.published_at, i.created_at) DESC, i.id DESC LIMIT ?`,
      )
      .all(limit) as RawItem[];
    return rows.map(toItem);
  }

  count(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM feed_items").get() as { n: number }).n;
  }
}
