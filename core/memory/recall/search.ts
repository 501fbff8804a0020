/**
 * Literal search in the chat log for [RECALL:] (docs/spec.md §5.1): SQLite FTS5's
 * bm25 (computed by the keyword index in memory once built, keyword-index/) with
 * prefix matching ("Kino" finds "Kinoabend"), time words as
 * hard filters, one user only. The conversation running now never counts,
 * and hits that are themselves about remembering rank below originals.
 */
import type { Db } from "../../foundation/store/db.ts";
import type { Role } from "../../foundation/store/chat-log.ts";
import { ChatSearchTable, type ChatRanker, type PassageRow } from "../../foundation/store/chat-search.ts";
import type { DayPart, TimeFilter } from "./time-words.ts";
import { isRecallRequest } from "./recall-talk.ts";
import { ftsQuery } from "./keyword-query.ts";
import { formatLocalShort, localHour } from "../../foundation/util/time.ts";

/** One message of a passage, with its local time ("YYYY-MM-DD HH:MM"). */
export interface PassageMessage {
  id: number;
  role: Role;
  text: string;
  createdAt: string;
  localTime: string;
  /** Who wrote it when neither the person nor Lilo did (another party of an imported chat history). */
  speaker?: string | undefined;
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
  /** Explicit dates named in the message ("am 3. Mai"): hits from them rank higher. ISO UTC, `to` exclusive. */
  dates?: { from: string; to: string }[];
  /** A ready MATCH expression searched instead of the terms' (the concept step's exact words: concept-matches.ts). */
  match?: string | undefined;
}

/** Rows looked at before giving up (exported: the fusion looks as deep) on finding `limit` passages (day parts filter after SQL). */
export const SCAN_FACTOR = 10;
export const MIN_SCAN = 100;
/** Long answers are cut on the follow-up sheet; the hit keeps more than its context. */
const HIT_CHARS = 1_500;
const CONTEXT_CHARS = 400;

export { ftsQuery } from "./keyword-query.ts";

/** Ranking knobs, tuned on the LoCoMo dev split with `npm run bench:recall`. */
export interface ChatSearchTuning {
  /** bm25 weight of the neighbouring turns' column against the message's own text (1). */
  contextWeight: number;
}

export const DEFAULT_CHAT_TUNING: ChatSearchTuning = { contextWeight: 0.5 };

/** One ranked message: its row and its keyword score (higher is better). */
export interface RankedMessage {
  id: number;
  conversationId: number;
  createdAt: string;
  score: number;
  /** The message lies in a date range the query named. */
  inDateRange: boolean;
}

/** Store 1 searched by words and time: the chat log as [RECALL:] and the cheat sheet see it. */
export class ChatSearch {
  private readonly tuning: ChatSearchTuning;
  private readonly table: ChatSearchTable;

  /** `keywords`: the chat log's keyword index in memory (keyword-index/); without it FTS5 ranks every search. */
  constructor(
    db: Db,
    private readonly timeZone: string,
    tuning: Partial<ChatSearchTuning> = {},
    keywords?: ChatRanker,
  ) {
    this.tuning = { ...DEFAULT_CHAT_TUNING, ...tuning };
    this.table = new ChatSearchTable(db, undefined, keywords);
  }

  /**
   * The best `limit` passages for the query: ranked by bm25 over the message
   * and (weighted lower) its neighbours, hits from named dates raised,
   * originals before talk about remembering; with no words but a time
   * filter, the newest messages of that time, oldest first. No words and no
   * filter: nothing. Passages never overlap.
   */
  search(q: RecallQuery): (RecallPassage & { score: number })[] {
    const ranked = this.rank({ ...q, limit: Math.max(MIN_SCAN, q.limit * SCAN_FACTOR) });
    return this.passages(ranked, q.limit, !(ftsQuery(q.terms) || q.dates?.length));
  }

  /**
   * Passages for ranked messages (from `rank` or a fusion of it): originals
   * before talk about remembering, never overlapping, at most `limit`;
   * `chronological` orders them by time instead of rank (time-only queries).
   */
  passages(ranked: RankedMessage[], limit: number, chronological: boolean): (RecallPassage & { score: number })[] {
    if (!ranked.length) return [];
    const read = this.read(ranked.map((r) => r.id));
    const passages = ranked.flatMap((r) => {
      const row = read.rows.get(r.id);
      return row ? [{ ...this.passage(row, read.around.get(r.id)), score: r.score }] : [];
    });
    const ordered = [...passages.filter((p) => !p.aboutRemembering), ...passages.filter((p) => p.aboutRemembering)];
    const shown = new Set<number>();
    const out: (RecallPassage & { score: number })[] = [];
    for (const p of ordered) {
      if (out.length >= limit) break;
      // Already on the sheet as another hit's context, or only next to it: passages never overlap.
      if ([p.before, p.hit, p.after].some((m) => m && shown.has(m.id))) continue;
      for (const m of [p.before, p.hit, p.after]) if (m) shown.add(m.id);
      out.push(p);
    }
    return chronological ? out.sort((a, b) => a.hit.id - b.hit.id) : out;
  }

  /**
   * Each ranked message with its neighbours, texts whole (the sheet's packer
   * cuts them itself), originals before talk about remembering, rank order
   * otherwise; overlapping freely (the packer merges).
   */
  contexts(ranked: RankedMessage[]): (RecallPassage & { score: number })[] {
    if (!ranked.length) return [];
    const read = this.read(ranked.map((r) => r.id));
    const all = ranked.flatMap((r) => {
      const row = read.rows.get(r.id);
      return row ? [{ ...this.passage(row, read.around.get(r.id), true), score: r.score }] : [];
    });
    return [...all.filter((p) => !p.aboutRemembering), ...all.filter((p) => p.aboutRemembering)];
  }

  /**
   * Messages ranked by keyword score, best first, each one message (its
   * neighbours only helped it match). Without words: the newest messages
   * inside the time filter.
   */
  rank(q: RecallQuery): RankedMessage[] {
    const match = q.match ?? ftsQuery(q.terms);
    const ranges = q.dates ?? [];
    const timed = q.filter.from !== undefined || q.filter.to !== undefined || q.filter.dayPart !== undefined;
    if (!match && !timed && !ranges.length) return [];
    const hits = match || timed ? this.candidates(q, match, undefined) : [];
    if (!ranges.length) return hits.slice(0, q.limit);
    // A named date ranks its own hits first: matching words if any, else the messages of that time.
    const byId = new Map(hits.map((h) => [h.id, h]));
    for (const range of ranges) {
      const inRange = match ? this.candidates(q, match, range) : [];
      for (const h of inRange.length ? inRange : this.candidates(q, undefined, range)) byId.set(h.id, h);
    }
    return [...byId.values()].sort((a, b) => Number(b.inDateRange) - Number(a.inDateRange) || b.score - a.score || b.id - a.id).slice(0, q.limit);
  }

  /** Matching rows in rank order (or newest first without words), the day part applied on the local hour. */
  private candidates(q: RecallQuery, match: string | undefined, range: { from: string; to: string } | undefined): RankedMessage[] {
    const from = [q.filter.from, range?.from]
      .filter((x): x is string => x !== undefined)
      .sort()
      .at(-1);
    const to = [q.filter.to, range?.to]
      .filter((x): x is string => x !== undefined)
      .sort()
      .at(0);
    const rows = this.table.candidates({
      userId: q.userId,
      excludeConversationId: q.excludeConversationId,
      from,
      to,
      match,
      contextWeight: this.tuning.contextWeight,
    });
    const out: RankedMessage[] = [];
    for (const row of rows) {
      if (q.filter.dayPart && !this.inDayPart(row.created_at, q.filter.dayPart)) continue;
      out.push({ id: row.id, conversationId: row.conversation_id, createdAt: row.created_at, score: row.score, inDateRange: range !== undefined });
      if (out.length >= q.limit) break; // leaving the loop early closes the statement
    }
    return out;
  }

  /** Who wrote each message (user or assistant) and its text, by id (forgotten ones left out). */
  rows(ids: number[]): Map<number, { role: Role; text: string }> {
    return ids.length ? new Map(this.table.byIds(ids).map((r) => [r.id, { role: r.role, text: r.text }])) : new Map();
  }

  /** Each message (role and text) with the message right after it in its conversation, if any. */
  withNext(ids: number[]): Map<number, { row: PassageRow; next: PassageRow | undefined }> {
    if (!ids.length) return new Map();
    const next = this.table.nextMessages(ids);
    return new Map(this.table.byIds(ids).map((row) => [row.id, { row, next: next.get(row.id) }]));
  }

  /** Is this instant inside the filter's local day part (if any)? */
  inDayPart(iso: string, part: DayPart): boolean {
    const hour = localHour(new Date(iso), this.timeZone);
    return hour >= part.fromHour && hour < part.toHour;
  }

  /** The rows of these messages (forgotten ones left out) and their neighbours, in two statements. */
  private read(ids: number[]): { rows: Map<number, PassageRow>; around: Map<number, { before?: PassageRow; after?: PassageRow }> } {
    const rows = new Map(this.table.byIds(ids).map((r) => [r.id, r]));
    return { rows, around: this.table.neighbours([...rows.keys()]) };
  }

  /** The hit with its neighbours (cut for [RECALL:], or `whole`); decides whether it is talk about remembering. */
  private passage(row: PassageRow, around: { before?: PassageRow; after?: PassageRow } | undefined, whole = false): RecallPassage {
    const [hitMax, contextMax] = whole ? [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY] : [HIT_CHARS, CONTEXT_CHARS];
    const { before, after } = around ?? {};
    const aboutRemembering =
      row.role === "user" ? isRecallRequest(row.text) : row.recall_answer === 1 || (before?.role === "user" && isRecallRequest(before.text));
    return {
      conversationId: row.conversation_id,
      ...(before ? { before: this.message(before, contextMax) } : {}),
      hit: this.message(row, hitMax),
      ...(after ? { after: this.message(after, contextMax) } : {}),
      aboutRemembering,
    };
  }

  private message(r: PassageRow, max: number): PassageMessage {
    const text = r.text.length > max ? `${r.text.slice(0, max).trimEnd()} …` : r.text;
    const m: PassageMessage = { id: r.id, role: r.role, text, createdAt: r.created_at, localTime: formatLocalShort(new Date(r.created_at), this.timeZone) };
    return r.speaker ? { ...m, speaker: r.speaker } : m;
  }
}
