import type { Db } from "./db.ts";
import { checkStoreValues } from "./values.ts";
import { readProvenance, type Provenance } from "./provenance.ts";

/** A follow-up topic or a 🧠 concern. */
export interface Topic {
  id: number;
  userId: string;
  text: string;
  kind: "followup" | "concern";
  status: "open" | "done" | "dropped" | "queued";
  dueAt: string;
  /** When the addressed-check found it in Lilo's answer. */
  doneAt: string | null;
  createdAt: string;
  /** Where it came from: Lilo's inference in a chat, an import; undefined for rows older than the columns. */
  origin: Provenance | undefined;
}

type RawTopic = {
  id: number;
  user_id: string;
  text: string;
  kind: Topic["kind"];
  status: Topic["status"];
  due_at: string;
  done_at: string | null;
  created_at: string;
  provenance: string | null;
  provenance_ref: string | null;
};
const toTopic = (r: RawTopic): Topic => ({
  id: r.id,
  userId: r.user_id,
  text: r.text,
  kind: r.kind,
  status: r.status,
  dueAt: r.due_at,
  doneAt: r.done_at,
  createdAt: r.created_at,
  origin: readProvenance(r),
});

/** Store 8: things to ask about later. */
export class TopicsStore {
  constructor(private readonly db: Db) {}

  /** Adds a topic; a "queued" one (a concern that came too soon) waits for `reopen`. */
  add(userId: string, text: string, kind: Topic["kind"], dueAt: string, now: string, status: "open" | "queued" = "open", origin?: Provenance): number {
    checkStoreValues("topics", { text, kind, status, dueAt });
    const info = this.db
      .prepare(
        `INSERT INTO topics (user_id, text, kind, status, due_at, created_at, updated_at, provenance, provenance_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(userId, text, kind, status, dueAt, now, now, origin?.kind ?? null, origin?.ref ?? null);
    return Number(info.lastInsertRowid);
  }

  /** Opens a queued topic, due at `dueAt`; false when it was not queued (any more). */
  openQueued(id: number, dueAt: string, now: string): boolean {
    return this.db.prepare(`UPDATE topics SET status = 'open', due_at = ?, updated_at = ? WHERE id = ? AND status = 'queued'`).run(dueAt, now, id).changes > 0;
  }

  /**
   * Open topics due at `now`, in the order they reach the cheat sheet:
   * 🧠 concerns before normal follow-ups, each oldest due first.
   */
  due(userId: string, now: string): Topic[] {
    return (
      this.db
        .prepare(`SELECT * FROM topics WHERE user_id = ? AND status = 'open' AND due_at <= ? ORDER BY kind = 'concern' DESC, due_at, id`)
        .all(userId, now) as RawTopic[]
    ).map(toTopic);
  }

  /** Marks an open topic as addressed; false when it was not open (any more). */
  markDone(id: number, now: string): boolean {
    return this.db.prepare(`UPDATE topics SET status = 'done', done_at = ?, updated_at = ? WHERE id = ? AND status = 'open'`).run(now, now, id).changes > 0;
  }

  /** Marks an open or queued topic as done by hand (`lilo topics done`); false when there is none. */
  finish(id: number, now: string): boolean {
    return (
      this.db.prepare(`UPDATE topics SET status = 'done', done_at = ?, updated_at = ? WHERE id = ? AND status IN ('open', 'queued')`).run(now, now, id)
        .changes > 0
    );
  }

  /** Changes a topic's text; false when there is no such topic. */
  edit(id: number, text: string, now: string): boolean {
    return this.db.prepare(`UPDATE topics SET text = ?, updated_at = ? WHERE id = ?`).run(text, now, id).changes > 0;
  }

  /** Deletes a topic for good; false when there is no such topic. */
  delete(id: number): boolean {
    return this.db.prepare(`DELETE FROM topics WHERE id = ?`).run(id).changes > 0;
  }

  get(id: number): Topic | undefined {
    const r = this.db.prepare(`SELECT * FROM topics WHERE id = ?`).get(id) as RawTopic | undefined;
    return r && toTopic(r);
  }

  /** One user's topics with this status, oldest due first. */
  list(userId: string, status: Topic["status"] = "open"): Topic[] {
    return (this.db.prepare(`SELECT * FROM topics WHERE user_id = ? AND status = ? ORDER BY due_at, id`).all(userId, status) as RawTopic[]).map(toTopic);
  }
}
