import type { Db } from "./db.ts";
import type { VectorStore } from "../ports/vector-index.ts";
import { prepared } from "./prepared.ts";
import { checkStoreValues } from "./values.ts";

/** One row of a store that has vectors (notes, important memories, thoughts, diary). */
export interface TextRow {
  id: number;
  userId: string;
  text: string;
  createdAt: string;
  updatedAt: string;
  supersededAt: string | null;
  /** Set when a forget started (tombstone): the row is on its way out and never comes back. */
  forgottenAt: string | null;
  /** Store-specific columns (kind, weight, questions, origin, day, source_message_id, subject, provenance, provenance_ref). */
  extra: Record<string, unknown>;
}

/** The columns each vector store has beyond the shared ones. */
const EXTRA_COLUMNS: Record<VectorStore, readonly string[]> = {
  notes: ["kind", "source_message_id", "subject", "provenance", "provenance_ref"],
  important: ["weight", "source_message_id", "subject", "provenance", "provenance_ref"],
  thoughts: ["questions", "origin", "provenance", "provenance_ref"],
  diary: ["day", "provenance", "provenance_ref"],
};

interface RawRow {
  id: number;
  user_id: string;
  text: string;
  created_at: string;
  updated_at: string;
  superseded_at: string | null;
  forgotten_at: string | null;
  [col: string]: unknown;
}

/**
 * SQL access to one vector store's table. Only the memory service calls the
 * writing methods, so that row and vector always change together.
 */
export class TextRows {
  readonly store: VectorStore;
  private readonly extras: readonly string[];

  constructor(
    private readonly db: Db,
    store: VectorStore,
  ) {
    this.store = store;
    this.extras = EXTRA_COLUMNS[store];
  }

  /** Inserts a row; its text and store-specific values must pass the store's rules (values.ts), or nothing is written. */
  insert(userId: string, text: string, createdAt: string, extra: Record<string, unknown> = {}): number {
    checkStoreValues(this.store, { ...extra, text });
    const cols = this.extras.filter((c) => extra[c] !== undefined);
    const names = ["user_id", "text", "created_at", "updated_at", ...cols];
    const sql = `INSERT INTO ${this.store} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
    const info = this.db.prepare(sql).run(userId, text, createdAt, createdAt, ...cols.map((c) => extra[c] as never));
    return Number(info.lastInsertRowid);
  }

  updateText(id: number, text: string, now: string): void {
    this.db.prepare(`UPDATE ${this.store} SET text = ?, updated_at = ? WHERE id = ?`).run(text, now, id);
  }

  setSuperseded(id: number, at: string | null, now: string): void {
    this.db.prepare(`UPDATE ${this.store} SET superseded_at = ?, updated_at = ? WHERE id = ?`).run(at, now, id);
  }

  /**
   * The first step of a forget: marks the row forgotten (and hidden, like a
   * superseded one) before its vector goes, so an interrupted forget is
   * finished by `lilo doctor` instead of re-embedded.
   */
  tombstone(id: number, now: string): void {
    this.db
      .prepare(`UPDATE ${this.store} SET forgotten_at = ?, superseded_at = coalesce(superseded_at, ?), updated_at = ? WHERE id = ?`)
      .run(now, now, now, id);
  }

  /** Rows whose forget was interrupted (tombstoned, not yet deleted). */
  tombstoned(): TextRow[] {
    return (this.db.prepare(`SELECT * FROM ${this.store} WHERE forgotten_at IS NOT NULL ORDER BY id`).all() as RawRow[]).map((r) => this.toRow(r));
  }

  delete(id: number): void {
    this.db.prepare(`DELETE FROM ${this.store} WHERE id = ?`).run(id);
  }

  get(id: number): TextRow | undefined {
    const row = prepared(this.db, `SELECT * FROM ${this.store} WHERE id = ?`).get(id) as RawRow | undefined;
    return row && this.toRow(row);
  }

  /** Rows by id, in the order of `ids`; missing ids are skipped. */
  getMany(ids: number[]): TextRow[] {
    if (ids.length === 0) return [];
    const rows = prepared(this.db, `SELECT * FROM ${this.store} WHERE id IN (${ids.map(() => "?").join(",")})`).all(...ids) as RawRow[];
    const byId = new Map(rows.map((r) => [r.id, this.toRow(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** A live (not superseded) row of this user with exactly this text. */
  findExact(userId: string, text: string): TextRow | undefined {
    const row = prepared(this.db, `SELECT * FROM ${this.store} WHERE user_id = ? AND text = ? AND superseded_at IS NULL LIMIT 1`).get(userId, text) as
      RawRow | undefined;
    return row && this.toRow(row);
  }

  /** Newest live rows of a user. */
  list(userId: string, limit = 50, offset = 0): TextRow[] {
    const rows = this.db
      .prepare(`SELECT * FROM ${this.store} WHERE user_id = ? AND superseded_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(userId, limit, offset) as RawRow[];
    return rows.map((r) => this.toRow(r));
  }

  /** Every live row of every user, oldest first, in pages; for reindex and doctor (`afterId`: only rows past it, where a reindex stopped). */
  *iterateLive(pageSize = 500, afterId = 0): Generator<TextRow[]> {
    let after = afterId;
    const stmt = this.db.prepare(`SELECT * FROM ${this.store} WHERE superseded_at IS NULL AND id > ? ORDER BY id LIMIT ?`);
    for (;;) {
      const rows = stmt.all(after, pageSize) as RawRow[];
      if (rows.length === 0) return;
      yield rows.map((r) => this.toRow(r));
      after = rows[rows.length - 1]!.id;
    }
  }

  /** Live rows of one user, or of everyone. */
  countLive(userId?: string): number {
    const row = userId
      ? this.db.prepare(`SELECT count(*) AS n FROM ${this.store} WHERE superseded_at IS NULL AND user_id = ?`).get(userId)
      : this.db.prepare(`SELECT count(*) AS n FROM ${this.store} WHERE superseded_at IS NULL`).get();
    return (row as { n: number }).n;
  }

  private toRow(r: RawRow): TextRow {
    const extra: Record<string, unknown> = {};
    for (const c of this.extras) extra[c] = r[c];
    return {
      id: r.id,
      userId: r.user_id,
      text: r.text,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      supersededAt: r.superseded_at,
      forgottenAt: r.forgotten_at ?? null,
      extra,
    };
  }
}
