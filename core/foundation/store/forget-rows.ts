/**
 * SQL of "forget everywhere": finding every row of a user that
 * holds some words, redacting chat messages in place, and scrubbing the logs
 * that quote what was said. The memory stores with vectors change through
 * the memory service (row and vector together); this file only reads them.
 */
import type { Db } from "./db.ts";
import { readProvenance, type Provenance } from "./provenance.ts";

/** The tables whose rows a forget can find. */
export type ForgetTable = "notes" | "important" | "thoughts" | "diary" | "profile" | "topics" | "short_term" | "suggestions" | "messages";

/** A row holding the words. */
export interface FoundRow {
  id: number;
  text: string;
  createdAt: string;
  /** Where the row came from (byIds only); a chat message is the user's words or Lilo's. */
  provenance?: Provenance | undefined;
}

/** `%word%` patterns for LIKE, in lower case and capitalised (SQLite folds case for ASCII letters only). */
function patterns(word: string): string[] {
  const esc = word.replace(/[\\%_]/g, (c) => `\\${c}`);
  const lower = esc.toLowerCase();
  const upper = lower.charAt(0).toUpperCase() + lower.slice(1);
  return [...new Set([`%${lower}%`, `%${upper}%`, `%${esc}%`])];
}

/** The WHERE part matching rows whose `col` holds every word, with its parameters. */
function wordsClause(col: string, words: string[]): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  for (const w of words) {
    const ps = patterns(w);
    parts.push(`(${ps.map(() => `${col} LIKE ? ESCAPE '\\'`).join(" OR ")})`);
    params.push(...ps);
  }
  return { sql: parts.join(" AND "), params };
}

/** Extra conditions per table: rows on their way out, redacted messages and finished topics are not found again. */
const LIVE: Partial<Record<ForgetTable, string>> = {
  notes: "forgotten_at IS NULL",
  important: "forgotten_at IS NULL",
  thoughts: "forgotten_at IS NULL",
  diary: "forgotten_at IS NULL",
  messages: "redacted_at IS NULL",
};

/** SQL access for the forget use case. */
export class ForgetRows {
  constructor(private readonly db: Db) {}

  /**
   * The user's rows of `table` that hold every one of `words`, newest first, at most `limit`.
   * SQL finds them as case-folded substrings; `keep` (the caller's rule of a whole word)
   * decides among those, so a limit counts only rows that are kept.
   */
  findByWords(table: ForgetTable, userId: string, words: string[], keep: (text: string) => boolean, limit = 200): FoundRow[] {
    if (!words.length) return [];
    const w = wordsClause("text", words);
    const live = LIVE[table] ? ` AND ${LIVE[table]}` : "";
    const sql = `SELECT id, text, created_at FROM ${table} WHERE user_id = ?${live} AND ${w.sql} ORDER BY id DESC`;
    const out: FoundRow[] = [];
    for (const r of this.db.prepare(sql).iterate(userId, ...w.params) as IterableIterator<{ id: number; text: string; created_at: string }>) {
      if (!keep(r.text)) continue;
      if (out.push({ id: r.id, text: r.text, createdAt: r.created_at }) >= limit) break;
    }
    return out;
  }

  /** Rows by id of one user, with their provenance (ids of another user's rows are skipped). */
  byIds(table: ForgetTable, userId: string, ids: number[]): FoundRow[] {
    if (!ids.length) return [];
    const live = LIVE[table] ? ` AND ${LIVE[table]}` : "";
    const sql = `SELECT * FROM ${table} WHERE user_id = ?${live} AND id IN (${ids.map(() => "?").join(",")})`;
    return (this.db.prepare(sql).all(userId, ...ids) as Record<string, unknown>[]).map((r) => ({
      id: r.id as number,
      text: r.text as string,
      createdAt: r.created_at as string,
      provenance: table === "messages" ? { kind: r.role === "user" ? "user" : "inference", ref: String(r.id) } : readProvenance(r),
    }));
  }

  /**
   * Replaces a chat message's text with `marker` and marks it redacted: the
   * keyword indexes follow by trigger, its vector is dropped by trigger, and
   * search skips redacted messages. The turn order is kept.
   */
  redactMessage(userId: string, id: number, marker: string, now: string): boolean {
    return (
      this.db
        .prepare(`UPDATE messages SET text = ?, redacted_at = ?, updated_at = ? WHERE id = ? AND user_id = ? AND redacted_at IS NULL`)
        .run(marker, now, now, id, userId).changes > 0
    );
  }

  /** Deletes a row of a table without vectors (profile, topics, short-term summaries, suggestions). */
  deleteRow(table: "profile" | "topics" | "short_term" | "suggestions", userId: string, id: number): boolean {
    return this.db.prepare(`DELETE FROM ${table} WHERE id = ? AND user_id = ?`).run(id, userId).changes > 0;
  }

  /** Rewrites the text of a derived row without vectors (a short-term summary, a topic). */
  rewrite(table: "short_term" | "topics", userId: string, id: number, text: string, now: string): boolean {
    return this.db.prepare(`UPDATE ${table} SET text = ?, updated_at = ? WHERE id = ? AND user_id = ?`).run(text, now, id, userId).changes > 0;
  }

  /**
   * Removes what the logs quote of the words: correction-log entries and
   * searches that hold them, the open question and the unsent pushes that
   * mention them. Returns how many rows changed.
   */
  scrubLogs(userId: string, words: string[], now: string): number {
    if (!words.length) return 0;
    let n = 0;
    for (const col of ["old_text", "new_text", "trigger_text"]) {
      const w = wordsClause(col, words);
      n += this.db.prepare(`DELETE FROM correction_log WHERE user_id = ? AND ${w.sql}`).run(userId, ...w.params).changes;
    }
    const q = wordsClause("query", words);
    n += this.db.prepare(`DELETE FROM search_log WHERE user_id = ? AND ${q.sql}`).run(userId, ...q.params).changes;
    const p = wordsClause("payload", words);
    n += this.db
      .prepare(
        `UPDATE pending_questions SET status = CASE status WHEN 'open' THEN 'discarded' ELSE status END, payload = '{}', updated_at = ? WHERE user_id = ? AND ${p.sql}`,
      )
      .run(now, userId, ...p.params).changes;
    const t = wordsClause("text", words);
    n += this.db
      .prepare(`UPDATE push_outbox SET status = 'done', outcome = 'forgotten', text = '', updated_at = ? WHERE user_id = ? AND status <> 'done' AND ${t.sql}`)
      .run(now, userId, ...t.params).changes;
    n += this.db.prepare(`UPDATE push_log SET text = '', updated_at = ? WHERE user_id = ? AND ${t.sql}`).run(now, userId, ...t.params).changes;
    // A reminder holding the words is gone too: it would ring them again.
    n += this.db.prepare(`DELETE FROM reminders WHERE user_id = ? AND ${t.sql}`).run(userId, ...t.params).changes;
    return n;
  }
}
