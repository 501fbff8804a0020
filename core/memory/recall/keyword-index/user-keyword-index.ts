/**
 * One partition's keyword index in memory — a user's chat log (the rows of
 * `messages_ctx_user_fts` in the user's range: the message's text and its
 * neighbours' context) or one memory store of a user (`${store}_user_fts`:
 * the text, context empty) — as posting lists in typed arrays, ranked with FTS5's
 * bm25 (fts5_aux.c: k1 1.2, b 0.75, idf clamped to 1e-6, column weights on
 * the instance counts, a row's length = its tokens in both columns). Only
 * the postings of the query's terms are read, and only the best rows sorted
 * (best-first.ts), where FTS5 walks every phrase's whole doclist for idf and
 * scores and sorts every match. N, n and the average length are counted over
 * the user's own rows: in a database of one user exactly FTS5's figures.
 *
 * A changed row is a new slot and its old slot dead (skipped, its postings
 * left in place until the index is rebuilt: `deadShare`).
 */
import type { CandidateRow } from "../../../foundation/store/chat-search.ts";
import { eachToken } from "./unicode61.ts";
import { bestFirst } from "./best-first.ts";

/** One phrase of an OR query: a single folded token, matched whole or as a prefix. */
export interface Phrase {
  token: string;
  prefix: boolean;
}

/** What the search filters on, from the user's message of a row or the live memory (none: the row counts in bm25 but is never a hit). */
export interface RowMessage {
  conversationId: number;
  createdAt: string;
  redacted: boolean;
}

/** The search's filters (as chat-search.ts applies them in SQL): the running conversation, ISO bounds (`to` exclusive). */
export interface RowFilter {
  excludeConversationId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** A row's instance counts above this do not fit the packed counts (the index then gives up: `TooManyInstancesError`). */
const MAX_COUNT = 0xffff;
/** New terms wait unsorted until there are this many, then are merged into the sorted vocabulary. */
const PENDING_TERMS = 256;
/** A context instance while counting a row's words (text instances count 1). */
const CONTEXT_UNIT = 2 ** 26;

/** A row with a word repeated more than 65,535 times in a column: left to FTS5. */
export class TooManyInstancesError extends Error {}

const grow = <T extends Int32Array | Float64Array>(a: T, need: number, make: (n: number) => T): T => {
  if (need <= a.length) return a;
  const b = make(Math.max(need, Math.ceil(a.length * 1.5), 4));
  b.set(a);
  return b;
};

export class UserKeywordIndex {
  /** `ln`: the C library's natural logarithm (FTS5's idf), not Math.log: scores must match FTS5's to the bit. */
  constructor(private readonly ln: (x: number) => number) {}

  /** Per slot: message id, length in tokens (-1: a dead slot), conversation, time and whether it may be a hit. */
  private ids = new Float64Array(1024);
  private lens = new Int32Array(1024);
  private conversations = new Float64Array(1024);
  private times: (string | undefined)[] = [];
  private hits = new Int32Array(1024);
  private slots = 0;
  private readonly slotOf = new Map<number, number>();
  /** Rows (N) and their tokens, live slots only. */
  private rows = 0;
  private tokens = 0;
  private deadSlots = 0;
  /** Per term id: postings as pairs (slot, packed counts: text | context << 16) in one array, and how many pairs are used. */
  private readonly termIds = new Map<string, number>();
  private posts: Int32Array[] = [];
  private postLen: number[] = [];
  private postings = 0;
  private sorted: string[] = [];
  private pending: string[] = [];
  /** Scratch per slot for a search: the phrase's counts, a stamp marking slots met, scores. */
  private tfText = new Int32Array(0);
  private tfContext = new Int32Array(0);
  private stamp = new Int32Array(0);
  private scored = new Int32Array(0);
  private score = new Float64Array(0);
  private stampNow = 0;

  /** Rows indexed (live). */
  get size(): number {
    return this.rows;
  }

  /** Share of slots that are dead (changed or deleted rows not yet dropped by a rebuild). */
  get deadShare(): number {
    return this.slots ? this.deadSlots / this.slots : 0;
  }

  /** Approximate bytes this index holds (typed arrays, the id map, the vocabulary). */
  get bytes(): number {
    let arrays = 0;
    // Per term: its array's header and backing store, the map entry and the string (V8's per-object overheads, estimated).
    for (const p of this.posts) arrays += p.byteLength + 80;
    let vocab = 0;
    for (const term of this.termIds.keys()) vocab += term.length + 60;
    return arrays + vocab + this.ids.length * 28 + this.slotOf.size * 80 + this.score.length * 28;
  }

  /** Indexes a row (replacing the version held, if any) with its message's filter columns. */
  put(id: number, text: string, context: string, message: RowMessage | undefined): void {
    this.remove(id);
    const counts = new Map<string, number>();
    let len = 0;
    // Counted as text + context × 2^26 (exact in a double), packed below once both are known to fit 16 bits.
    eachToken(text, (t) => (len++, counts.set(t, (counts.get(t) ?? 0) + 1)));
    eachToken(context, (t) => (len++, counts.set(t, (counts.get(t) ?? 0) + CONTEXT_UNIT)));
    const slot = this.slots++;
    this.ids = grow(this.ids, this.slots, (n) => new Float64Array(n));
    this.lens = grow(this.lens, this.slots, (n) => new Int32Array(n));
    this.conversations = grow(this.conversations, this.slots, (n) => new Float64Array(n));
    this.hits = grow(this.hits, this.slots, (n) => new Int32Array(n));
    this.ids[slot] = id;
    this.lens[slot] = len;
    this.hits[slot] = message && !message.redacted ? 1 : 0;
    this.conversations[slot] = message?.conversationId ?? 0;
    this.times[slot] = message?.createdAt;
    this.slotOf.set(id, slot);
    this.rows++;
    this.tokens += len;
    for (const [term, both] of counts) {
      const [inText, inContext] = [both % CONTEXT_UNIT, Math.floor(both / CONTEXT_UNIT)];
      if (inText > MAX_COUNT || inContext > MAX_COUNT) throw new TooManyInstancesError(`message ${id} repeats a word too often`);
      this.append(this.term(term), slot, inText + inContext * 0x10000);
    }
  }

  /** Drops a row (no-op when it is not indexed). */
  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.rows--;
    this.tokens -= this.lens[slot]!;
    this.lens[slot] = -1;
    this.hits[slot] = 0;
    this.times[slot] = undefined;
    this.deadSlots++;
  }

  /**
   * The user's messages matching any phrase and passing the filter, best
   * first (score = -bm25 with weights 1 and `contextWeight`; ties: higher id
   * first); read lazily, `firstPage` rows selected at first.
   */
  rank(phrases: Phrase[], contextWeight: number, filter: RowFilter, firstPage: number): IterableIterator<CandidateRow> {
    this.scratch();
    const avgdl = this.tokens / this.rows;
    const met: number[] = [];
    const firstStamp = this.stampNow + 1;
    for (const phrase of phrases) {
      const stamp = ++this.stampNow;
      const list: number[] = [];
      for (const t of this.expand(phrase)) {
        const [posts, n] = [this.posts[t]!, this.postLen[t]! * 2];
        for (let j = 0; j < n; j += 2) {
          const s = posts[j]!;
          if (this.lens[s]! < 0) continue;
          if (this.stamp[s] !== stamp) {
            if (this.stamp[s]! < firstStamp) {
              met.push(s);
              this.score[s] = 0;
            }
            this.stamp[s] = stamp;
            this.tfText[s] = 0;
            this.tfContext[s] = 0;
            list.push(s);
          }
          this.tfText[s]! += posts[j + 1]! & 0xffff;
          this.tfContext[s]! += posts[j + 1]! >>> 16;
        }
      }
      // fts5Bm25GetData: idf from the rows holding the phrase (n) among all (N).
      let idf = this.ln((this.rows - list.length + 0.5) / (list.length + 0.5));
      if (idf <= 0.0) idf = 1e-6;
      for (const s of list) {
        // fts5Bm25Function: instances summed in FTS5's order (the text column's, then each context one's weight).
        let freq = this.tfText[s]!;
        for (let c = this.tfContext[s]!; c > 0; c--) freq += contextWeight;
        const D = this.lens[s]!;
        this.score[s]! += idf * ((freq * (1.2 + 1.0)) / (freq + 1.2 * (1 - 0.75 + (0.75 * D) / avgdl)));
      }
    }
    let n = 0;
    for (const s of met) if (this.passes(s, filter)) this.scored[n++] = s;
    return this.asRows(bestFirst(this.scored, n, this.score, this.ids, firstPage));
  }

  /** chat-search.ts's SQL filters on one slot: not forgotten, not the running conversation, inside the bounds (compared as SQLite compares text). */
  private passes(s: number, f: RowFilter): boolean {
    if (!this.hits[s]) return false;
    if (f.excludeConversationId !== undefined && this.conversations[s] === f.excludeConversationId) return false;
    const at = this.times[s]!;
    return (f.from === undefined || at >= f.from) && (f.to === undefined || at < f.to);
  }

  private *asRows(slots: IterableIterator<number>): IterableIterator<CandidateRow> {
    for (const s of slots) yield { id: this.ids[s]!, conversation_id: this.conversations[s]!, created_at: this.times[s]!, score: this.score[s]! };
  }

  /** Sorts waiting new terms into the vocabulary (a prefix search needs it sorted). */
  settle(): void {
    if (!this.pending.length) return;
    const add = this.pending.sort();
    this.pending = [];
    const out: string[] = new Array(this.sorted.length + add.length);
    let [i, j, k] = [0, 0, 0];
    while (i < this.sorted.length && j < add.length) out[k++] = this.sorted[i]! < add[j]! ? this.sorted[i++]! : add[j++]!;
    while (i < this.sorted.length) out[k++] = this.sorted[i++]!;
    while (j < add.length) out[k++] = add[j++]!;
    this.sorted = out;
  }

  /** Term ids a phrase matches: the token itself, or every term starting with it. */
  private expand(p: Phrase): number[] {
    if (!p.prefix) {
      const t = this.termIds.get(p.token);
      return t === undefined ? [] : [t];
    }
    if (this.pending.length > PENDING_TERMS) this.settle();
    const out: number[] = [];
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (this.sorted[m]! < p.token) lo = m + 1;
      else hi = m;
    }
    for (let i = lo; i < this.sorted.length && this.sorted[i]!.startsWith(p.token); i++) out.push(this.termIds.get(this.sorted[i]!)!);
    for (const term of this.pending) if (term.startsWith(p.token)) out.push(this.termIds.get(term)!);
    return out;
  }

  private term(term: string): number {
    let t = this.termIds.get(term);
    if (t === undefined) {
      t = this.posts.length;
      this.termIds.set(term, t);
      this.posts.push(new Int32Array(2));
      this.postLen.push(0);
      this.pending.push(term);
    }
    return t;
  }

  private append(t: number, slot: number, packed: number): void {
    const n = this.postLen[t]!;
    const posts = (this.posts[t] = grow(this.posts[t]!, 2 * n + 2, (k) => new Int32Array(k)));
    posts[2 * n] = slot;
    posts[2 * n + 1] = packed; // above 2^31 it reads back negative; >>> and & recover both counts
    this.postLen[t] = n + 1;
    this.postings++;
  }

  /** Scratch arrays as long as the slots. */
  private scratch(): void {
    if (this.score.length >= this.slots && this.stampNow < 2 ** 30) return;
    const n = Math.ceil(this.slots * 1.25) + 64;
    this.tfText = new Int32Array(n);
    this.tfContext = new Int32Array(n);
    this.stamp = new Int32Array(n);
    this.stampNow = 0;
    this.scored = new Int32Array(n);
    this.score = new Float64Array(n);
  }
}
