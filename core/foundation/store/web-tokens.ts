import type { Db } from "./db.ts";

/** What a web token is: a one-time login link, or the browser session it opened. */
type WebTokenKind = "link" | "session";

/** A stored token (its hash only): whose it is (null = the operator), until when, and when a link was used. */
export interface WebTokenRow {
  kind: WebTokenKind;
  userId: string | null;
  expiresAt: string;
  usedAt: string | null;
}

type RawToken = { kind: WebTokenKind; user_id: string | null; expires_at: string; used_at: string | null };

/** Login links and sessions of Lilo's pages (table `web_tokens`); the tokens themselves are never stored, only their hashes. */
export class WebTokensStore {
  constructor(private readonly db: Db) {}

  add(hash: string, kind: WebTokenKind, userId: string | null, expiresAt: string, now: string): void {
    this.db.prepare(`INSERT INTO web_tokens (hash, kind, user_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?)`).run(hash, kind, userId, expiresAt, now);
  }

  get(hash: string): WebTokenRow | undefined {
    const r = this.db.prepare(`SELECT kind, user_id, expires_at, used_at FROM web_tokens WHERE hash = ?`).get(hash) as RawToken | undefined;
    return r && { kind: r.kind, userId: r.user_id, expiresAt: r.expires_at, usedAt: r.used_at };
  }

  /** Marks an unused, unexpired link used; false when another request used it first (one statement, so a link opens one session). */
  use(hash: string, now: string): boolean {
    const r = this.db.prepare(`UPDATE web_tokens SET used_at = ? WHERE hash = ? AND kind = 'link' AND used_at IS NULL AND expires_at > ?`).run(now, hash, now);
    return r.changes === 1;
  }

  delete(hash: string): void {
    this.db.prepare(`DELETE FROM web_tokens WHERE hash = ?`).run(hash);
  }

  /** Removes tokens that expired before `before` (a used or expired link stays a while so its page can say why it was refused). */
  purge(before: string): number {
    return this.db.prepare(`DELETE FROM web_tokens WHERE expires_at < ?`).run(before).changes;
  }
}
