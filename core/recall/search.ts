/**
 * Literal search in the chat log for [RECALL:] (SPEC §5.1): SQLite FTS5 with
 * prefix matching ("Kino" finds "Kinoabend") and bm25 ranking, time words as
 * hard filters, one user only. The conversation running now never counts,
 * and hits that are themselves about remembering rank below originals.
 */
import type { Db } from "../store/db.ts";
import type { Role } from "../store/chat-log.ts";
import type { DayPart, TimeFilter } from "./time-words.ts";
import { foldWord } from "./time-words.ts";
import { isRecallRequest } from "./recall-talk.ts";
import { FILLER_WORDS } from "../util/meaningful-words.ts";
import { formatLocalShort, localHour } from "../util/time.ts";

/** One message of a passage, with its local time ("YYYY-MM-DD HH:MM"). */
export interface PassageMessage {
  id: number;
  role: Role;
  text: string;
  createdAt: string;
  localTime: string;
}

/** A hit with the message before and after it in the same conversation. */
export interface RecallPassage {
  conversationId: number;
  before?: PassageMessage;
  hit: PassageMessage;
  after?: PassageMessage;
  /** The hit is a later conversation about remembering, not an original. */
  aboutRemembering: boolean;
}

/** What to search: words (may be empty when a time filter is given), filters, scope. */
export interface RecallQuery {
  userId: string;
  terms: string[];
  filter: TimeFilter;
  /** The conversation running now: never a hit. */
  excludeConversationId?: number;
  limit: number;
}

/** Short words that would match half the log as a prefix; dropped unless nothing else is left. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "und", "oder", "mit", "von",
  "zu", "zum", "zur", "im", "in", "am", "an", "auf", "aus", "bei", "fur", "uber", "um", "vom", "ich", "du", "er",
  "sie", "es", "wir", "ihr", "mir", "dir", "mich", "dich", "uns", "was", "wie", "wo", "wer", "ist", "war", "hat",
  "the", "a", "an", "and", "or", "of", "to", "on", "at", "for", "with", "is", "was", "i", "you", "we", "it", "my",
  "me", "he", "she", "his", "her", "how", "who", "did",
]);

/** Rows looked at before giving up on finding `limit` passages (day parts filter after SQL). */
const SCAN_FACTOR = 10;
const MIN_SCAN = 100;
/** Long answers are cut on the follow-up sheet; the hit keeps more than its context. */
const HIT_CHARS = 1_500;
const CONTEXT_CHARS = 400;

interface Row {
  id: number;
  conversation_id: number;
  role: Role;
  text: string;
  created_at: string;
  recall_answer: number;
}

/**
 * Builds an FTS5 MATCH expression that cannot be broken by user text: every
 * term is cut into the tokens unicode61 would see, each token becomes a
 * quoted string (quotes doubled), prefix-matched when 3+ letters, and the
 * terms are joined with OR so bm25 ranks messages with more of them first.
 * Returns undefined when no searchable word is left.
 */
export function ftsQuery(terms: string[]): string | undefined {
  const tokens = terms.flatMap((t) => t.normalize("NFC").match(/[\p{L}\p{N}\p{M}]+/gu) ?? []);
  const meaningful = tokens.filter((t) => {
    const f = foldWord(t);
    return f.length >= 2 && !STOP_WORDS.has(f) && !FILLER_WORDS.has(f) && !FILLER_WORDS.has(t.toLowerCase());
  });
  const chosen = [...new Set(meaningful.length ? meaningful : tokens)];
  if (!chosen.length) return undefined;
  return chosen.map((t) => `"${t.replaceAll('"', '""')}"${foldWord(t).length >= 3 ? "*" : ""}`).join(" OR ");
}

/** Store 1 searched by words and time: the chat log as [RECALL:] sees it. */
export class ChatSearch {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  /**
   * The best `limit` passages for the query: ranked by bm25, originals before
   * talk about remembering; with no words but a time filter, the newest
   * messages of that time, oldest first. No words and no filter: nothing.
   */
  search(q: RecallQuery): RecallPassage[] {
    const match = ftsQuery(q.terms);
    const timed = q.filter.from !== undefined || q.filter.to !== undefined || q.filter.dayPart !== undefined;
    if (!match && !timed) return [];
    const rows = this.candidates(q, match);
    const passages = rows.map((r) => this.passage(r));
    const ranked = [...passages.filter((p) => !p.aboutRemembering), ...passages.filter((p) => p.aboutRemembering)];
    const shown = new Set<number>();
    const out: RecallPassage[] = [];
    for (const p of ranked) {
      if (out.length >= q.limit) break;
      if (shown.has(p.hit.id)) continue; // already on the sheet as another hit's context
      for (const m of [p.before, p.hit, p.after]) if (m) shown.add(m.id);
      out.push(p);
    }
    return match ? out : out.sort((a, b) => a.hit.id - b.hit.id);
  }

  /** Matching rows in rank order (or newest first without words), the day part applied on the local hour. */
  private candidates(q: RecallQuery, match: string | undefined): Row[] {
    const where = ["m.user_id = @userId"];
    const params: Record<string, string | number> = { userId: q.userId };
    if (q.excludeConversationId !== undefined) {
      where.push("m.conversation_id <> @exclude");
      params.exclude = q.excludeConversationId;
    }
    if (q.filter.from !== undefined) {
      where.push("m.created_at >= @from");
      params.from = q.filter.from;
    }
    if (q.filter.to !== undefined) {
      where.push("m.created_at < @to");
      params.to = q.filter.to;
    }
    const cols = "m.id, m.conversation_id, m.role, m.text, m.created_at, m.recall_answer";
    let sql: string;
    if (match) {
      params.match = match;
      sql = `SELECT ${cols} FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
             WHERE messages_fts MATCH @match AND ${where.join(" AND ")} ORDER BY messages_fts.rank, m.id DESC`;
    } else {
      sql = `SELECT ${cols} FROM messages m WHERE ${where.join(" AND ")} ORDER BY m.created_at DESC, m.id DESC`;
    }
    const cap = Math.max(MIN_SCAN, q.limit * SCAN_FACTOR);
    const out: Row[] = [];
    for (const row of this.db.prepare(sql).iterate(params) as IterableIterator<Row>) {
      if (q.filter.dayPart && !this.inDayPart(row.created_at, q.filter.dayPart)) continue;
      out.push(row);
      if (out.length >= cap) break; // leaving the loop early closes the statement
    }
    return out;
  }

  private inDayPart(iso: string, part: DayPart): boolean {
    const hour = localHour(new Date(iso), this.timeZone);
    return hour >= part.fromHour && hour < part.toHour;
  }

  /** The hit with its neighbours; decides whether it is talk about remembering. */
  private passage(row: Row): RecallPassage {
    const near = (op: "<" | ">") =>
      this.db
        .prepare(
          `SELECT id, conversation_id, role, text, created_at, recall_answer FROM messages
           WHERE conversation_id = ? AND id ${op} ? ORDER BY id ${op === "<" ? "DESC" : "ASC"} LIMIT 1`,
        )
        .get(row.conversation_id, row.id) as Row | undefined;
    const before = near("<");
    const after = near(">");
    const aboutRemembering =
      row.role === "user"
        ? isRecallRequest(row.text)
        : row.recall_answer === 1 || (before?.role === "user" && isRecallRequest(before.text));
    return {
      conversationId: row.conversation_id,
      ...(before ? { before: this.message(before, CONTEXT_CHARS) } : {}),
      hit: this.message(row, HIT_CHARS),
      ...(after ? { after: this.message(after, CONTEXT_CHARS) } : {}),
      aboutRemembering,
    };
  }

  private message(r: Row, max: number): PassageMessage {
    const text = r.text.length > max ? `${r.text.slice(0, max).trimEnd()} …` : r.text;
    return { id: r.id, role: r.role, text, createdAt: r.created_at, localTime: formatLocalShort(new Date(r.created_at), this.timeZone) };
  }
}
