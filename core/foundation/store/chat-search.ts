/**
 * The chat log's SQL for [RECALL:] (core/memory/recall/search.ts ranks and builds
 * passages): FTS5 over each message with its neighbours (`messages_ctx_user_fts`, one user's range,
 * bm25), time bounds, and the messages around a hit.
 */
import type { Db } from "./db.ts";
import type { Role } from "./chat-log.ts";
import { prepared } from "./prepared.ts";
import { inUserRange, userBase } from "./user-fts.ts";

/** The columns of a PassageRow. */
const PASSAGE_COLUMNS = "id, conversation_id, role, text, created_at, recall_answer, speaker";

/** A chat message as a passage needs it. */
export interface PassageRow {
  id: number;
  conversation_id: number;
  role: Role;
  text: string;
  created_at: string;
  recall_answer: number;
  /** Another party of an imported chat history; null for the person and Lilo. */
  speaker: string | null;
}

/** A candidate hit: the message, its conversation, time and keyword score. */
export interface CandidateRow {
  id: number;
  conversation_id: number;
  created_at: string;
  score: number;
}

/** Which of one user's messages are candidates: ISO bounds (`to` exclusive), an FTS5 match or none. */
export interface CandidateFilter {
  userId: string;
  excludeConversationId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** An FTS5 query; without it, every message inside the bounds. */
  match?: string | undefined;
  /** bm25 weight of the neighbours' column against the message's own text. */
  contextWeight: number;
}

/**
 * Ranks a user's chat-log matches in memory as FTS5's bm25 over
 * `messages_ctx_user_fts` would (core/memory/recall/keyword-index), with the
 * same filters: the candidates `candidates` gives for a filter with a match,
 * or undefined when it cannot answer now (FTS5 does then).
 */
export interface ChatRanker {
  candidates(f: CandidateFilter): IterableIterator<CandidateRow> | undefined;
}

/** Ranked matches whose rows are read at once (then twice as many each time): a search reads 50–100. */
const RANKED_BATCH = 128;
/** Ranked matches asked of FTS5 first (then four times as many each time the reader goes further). */
const FIRST_PAGE = 512;

/** Up to `n` more items of an iterator. */
function take<T>(it: Iterator<T>, n: number): T[] {
  const out: T[] = [];
  while (out.length < n) {
    const r = it.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

export class ChatSearchTable {
  /**
   * `firstPage`: ranked matches asked of FTS5 at first (tests make it small
   * to cross many pages); `ranker`: the keyword index in memory, FTS5 when
   * it cannot answer.
   */
  constructor(
    private readonly db: Db,
    private readonly firstPage = FIRST_PAGE,
    private readonly ranker?: ChatRanker,
  ) {}

  /**
   * Candidates ranked by bm25 (best first), or newest first without a match.
   * An iterator, read only as far as needed.
   */
  candidates(f: CandidateFilter): IterableIterator<CandidateRow> {
    const mine = f.match ? this.ranker?.candidates(f) : undefined;
    if (mine) return mine;
    // A forgotten (redacted) message is never found again.
    const where = ["m.user_id = @userId", "m.redacted_at IS NULL"];
    const params: Record<string, string | number> = { userId: f.userId };
    if (f.excludeConversationId !== undefined) {
      where.push("m.conversation_id <> @exclude");
      params.exclude = f.excludeConversationId;
    }
    if (f.from !== undefined) {
      where.push("m.created_at >= @from");
      params.from = f.from;
    }
    if (f.to !== undefined) {
      where.push("m.created_at < @to");
      params.to = f.to;
    }
    if (f.match && f.from === undefined && f.to === undefined)
      return this.rankedThenRows(this.rankedMatches(f.match, f.contextWeight, f.userId), where, params);
    let sql: string;
    if (f.match) {
      params.match = f.match;
      // Time bounds prune rows before bm25 is computed: joined in one query (bm25 only for the rows inside them).
      sql = `SELECT m.id, m.conversation_id, m.created_at, -bm25(messages_ctx_user_fts, 1.0, ${f.contextWeight}) AS score
             FROM messages_ctx_user_fts JOIN messages m ON m.id = messages_ctx_user_fts.rowid - ${userBase("@userId")}
             WHERE messages_ctx_user_fts MATCH @match AND ${inUserRange("messages_ctx_user_fts", "@userId")} AND ${where.join(" AND ")}
             ORDER BY score DESC, m.id DESC`;
    } else {
      sql = `SELECT m.id, m.conversation_id, m.created_at, 0 AS score FROM messages m WHERE ${where.join(" AND ")} ORDER BY m.created_at DESC, m.id DESC`;
    }
    // Prepared per call: an iterated statement cannot be shared (see prepared.ts).
    return this.db.prepare(sql).iterate(params) as IterableIterator<CandidateRow>;
  }

  /**
   * Without time bounds (and without the index in memory): ranked matches
   * from FTS5 alone in the user's rowid range (user-fts.ts), then the
   * message rows read a batch at a time in rank order, only as far as the
   * caller reads, with the filters applied. A long log's thousands of
   * matches no longer each cost a join first, nor a row in JavaScript. Same
   * order as the joined query: within one user's range, rowid order is id order.
   */
  private *rankedThenRows(ranked: Iterator<[number, number]>, where: string[], params: Record<string, string | number>): IterableIterator<CandidateRow> {
    const rows = prepared(
      this.db,
      `SELECT m.id, m.conversation_id, m.created_at FROM messages m WHERE m.id IN (SELECT value FROM json_each(@ids)) AND ${where.join(" AND ")}`,
    );
    for (let batch = RANKED_BATCH, slice = take(ranked, batch); slice.length; batch *= 2, slice = take(ranked, batch)) {
      const found = new Map((rows.all({ ...params, ids: JSON.stringify(slice.map((r) => r[0])) }) as Omit<CandidateRow, "score">[]).map((r) => [r.id, r]));
      for (const [id, score] of slice) {
        const r = found.get(id);
        if (r) yield { ...r, score };
      }
    }
  }

  /**
   * The user's matches as [id, score], best first, fetched a page at a time:
   * `ORDER BY … LIMIT` keeps only the best rows in SQLite's sorter instead of
   * handing every match to JavaScript (at 100k messages a common word matches
   * thousands; a search reads 50–100). The order is total (score, then id), so
   * a longer page starts with the shorter one and the rows after it continue
   * exactly where it ended: the same sequence as reading every match.
   */
  private *rankedMatches(match: string, contextWeight: number, userId: string): IterableIterator<[number, number]> {
    const page = prepared(
      this.db,
      `SELECT rowid - ${userBase("@userId")} AS id, -bm25(messages_ctx_user_fts, 1.0, ${contextWeight}) AS score FROM messages_ctx_user_fts
         WHERE messages_ctx_user_fts MATCH @match AND ${inUserRange("messages_ctx_user_fts", "@userId")} ORDER BY score DESC, rowid DESC LIMIT @limit`,
    ).raw();
    let seen = 0;
    for (let limit = this.firstPage; ; limit *= 4) {
      const rows = page.all({ match, userId, limit }) as [number, number][];
      for (let i = seen; i < rows.length; i++) yield rows[i]!;
      seen = rows.length;
      if (rows.length < limit) return;
    }
  }

  /** Messages by id, in no particular order (one statement, prepared once: a turn reads these several times). */
  byIds(ids: number[]): PassageRow[] {
    if (!ids.length) return [];
    return prepared(this.db, `SELECT ${PASSAGE_COLUMNS} FROM messages WHERE redacted_at IS NULL AND id IN (SELECT value FROM json_each(?))`).all(
      JSON.stringify(ids),
    ) as PassageRow[];
  }

  /** The message right after each of these in its conversation (unless forgotten), keyed by the earlier message's id. */
  nextMessages(ids: number[]): Map<number, PassageRow> {
    if (!ids.length) return new Map();
    const rows = prepared(
      this.db,
      `SELECT p.id AS of_id, ${PASSAGE_COLUMNS.replace(/(\w+)/g, "n.$1")}
         FROM messages p JOIN messages n ON n.id = (SELECT min(x.id) FROM messages x WHERE x.conversation_id = p.conversation_id AND x.id > p.id)
         WHERE n.redacted_at IS NULL AND p.id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as (PassageRow & { of_id: number })[];
    return new Map(rows.map(({ of_id, ...row }) => [of_id, row]));
  }

  /**
   * The messages just before and just after each of these in its conversation
   * (as `neighbour` reads them), keyed by its id: one statement for a whole
   * sheet's hits instead of two per hit.
   */
  neighbours(ids: number[]): Map<number, { before?: PassageRow; after?: PassageRow }> {
    const out = new Map<number, { before?: PassageRow; after?: PassageRow }>();
    if (!ids.length) return out;
    const rows = prepared(
      this.db,
      `WITH p AS (SELECT id, conversation_id FROM messages WHERE id IN (SELECT value FROM json_each(?))),
            n AS (SELECT id AS of_id, 0 AS after, (SELECT max(x.id) FROM messages x WHERE x.conversation_id = p.conversation_id AND x.id < p.id) AS nid FROM p
                  UNION ALL
                  SELECT id, 1, (SELECT min(x.id) FROM messages x WHERE x.conversation_id = p.conversation_id AND x.id > p.id) FROM p)
       SELECT n.of_id, n.after, ${PASSAGE_COLUMNS.replace(/(\w+)/g, "m.$1")} FROM n JOIN messages m ON m.id = n.nid`,
    ).all(JSON.stringify(ids)) as (PassageRow & { of_id: number; after: number })[];
    for (const { of_id, after, ...row } of rows) {
      const entry = out.get(of_id) ?? {};
      if (after) entry.after = row;
      else entry.before = row;
      out.set(of_id, entry);
    }
    return out;
  }
}
