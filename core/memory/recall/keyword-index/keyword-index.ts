/**
 * A keyword ranking in memory over one source of rows (keyword-rows.ts: the
 * chat log's `messages_ctx_user_fts`, the memory stores' `${store}_user_fts`),
 * one index per partition (a user's chat log, one store of a user;
 * user-keyword-index.ts), kept equal to the source through the change log
 * its triggers fill (read by sequence number before each search, so writes
 * of other processes — the CLI, an import, "forget" — are seen by the next
 * search). A partition's index is built a slice of rows at a time between
 * other work; until it is ready (or when this cannot answer exactly) the
 * caller asks FTS5, which gives the same ranking. Bounded memory: the least
 * recently searched partitions' indexes are dropped beyond `maxBytes`.
 * chat-keyword-index.ts and memory-keyword-index.ts put it to use.
 */
import type { KeywordRow, KeywordRows } from "../../../foundation/store/keyword-rows.ts";
import type { CandidateRow } from "../../../foundation/store/chat-search.ts";
import { UserKeywordIndex, type RowFilter } from "./user-keyword-index.ts";
import { matchPhrases } from "./match-phrases.ts";

/** Options: the memory bound, and (tests) smaller slices and pages. */
export interface KeywordIndexOptions {
  /** Bytes all partitions' indexes may take together (the one searched is kept even if larger). */
  maxBytes: number;
  /** Rows read and indexed in one step of a build. */
  sliceRows?: number;
  /** Best rows selected at first in a ranking (then four times as many). */
  firstPage?: number;
  /** More changes than this at once: the indexes are rebuilt (in slices) rather than patched during a search. */
  patchMax?: number;
  /** Told when a partition cannot be indexed exactly (FTS5 keeps answering for it). */
  onProblem?: (key: string, error: unknown) => void;
}

/** Default of `patchMax`: re-reading 2,000 rows in a search costs about what FTS5's ranking does at 100k messages. */
const PATCH_MAX = 2000;
/** Logarithms remembered at most (then forgotten all at once). */
const LOG_CACHE = 10_000;
/** A partition's index is rebuilt once this share of its slots are dead (changed rows: each new message also rewrites the one before, so new messages alone reach 0.3 once the log has grown by about 75 %). */
const REBUILD_DEAD_SHARE = 0.3;

/**
 * Time bounds and stored times are compared as strings in JavaScript (UTF-16
 * code units) where SQLite compares UTF-8 bytes: the same order unless a
 * string holds a character from U+D800 on. Such bounds go to FTS5.
 */
const comparable = (s: string | undefined): boolean => s === undefined || !/[\uD800-\uFFFF]/.test(s);

/** A time SQLite would order differently from JavaScript: the partition is left to FTS5. */
export class IncomparableTimeError extends Error {}

/** Indexes one FTS row with its filter columns. */
function put(index: UserKeywordIndex, r: KeywordRow): void {
  if (r.created_at !== null && !comparable(r.created_at)) throw new IncomparableTimeError(`row ${r.id}: a time SQLite orders otherwise`);
  const message = r.present ? { conversationId: r.conversation_id!, createdAt: r.created_at!, redacted: r.redacted === 1 } : undefined;
  index.put(r.id, r.text, r.context, message);
}

interface Build {
  index: UserKeywordIndex;
  /** The last row read (the next page starts after it). */
  after?: KeywordRow | undefined;
}

interface Entry {
  /** The index searched; undefined until the first build is done. */
  live?: UserKeywordIndex;
  building?: Build;
  failed?: boolean;
  bytes: number;
  waiters: (() => void)[];
}

export class KeywordIndex {
  private readonly parts = new Map<string, Entry>();
  /** SQLite's logarithms asked for before (a search needs one per word; the arguments repeat). */
  private readonly logs = new Map<number, number>();
  private lastSeq: number | undefined;
  private timer: NodeJS.Immediate | undefined;
  private closed = false;
  private readonly sliceRows: number;
  private readonly firstPage: number;
  private readonly patchMax: number;

  constructor(
    private readonly rows: KeywordRows,
    private readonly options: KeywordIndexOptions,
  ) {
    this.sliceRows = options.sliceRows ?? 500; // 10–30 ms of work: the event loop stays responsive while a long log is indexed
    this.firstPage = options.firstPage ?? 512;
    this.patchMax = options.patchMax ?? PATCH_MAX;
  }

  /**
   * The partition's rows matching the FTS5 query `match`, best first,
   * filtered; undefined: FTS5 must answer (index not ready, query or bounds
   * not of the kind ported).
   */
  rank(key: string, match: string, contextWeight: number, filter: RowFilter): IterableIterator<CandidateRow> | undefined {
    const phrases = matchPhrases(match);
    if (!phrases || !comparable(filter.from) || !comparable(filter.to) || !this.sync()) return undefined;
    const e = this.entry(key);
    if (e.building) this.schedule(); // a build paused while a transaction was open goes on
    return e.live?.rank(phrases, contextWeight, filter, this.firstPage);
  }

  /** Resolves once the partition's index is built (starts the build; benchmark, `recall.indexMessages`, tests). */
  whenReady(key: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.sync();
    const e = this.entry(key);
    if (e.live || e.failed) return Promise.resolve();
    return new Promise((resolve) => e.waiters.push(resolve));
  }

  /** Partitions indexed and the bytes their indexes took when built (tests, benchmark). */
  stats(): { parts: number; bytes: number } {
    let bytes = 0;
    for (const e of this.parts.values()) bytes += e.bytes;
    return { parts: this.parts.size, bytes };
  }

  /** Stops building (no more timers). */
  close(): void {
    this.closed = true;
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    for (const e of this.parts.values()) for (const w of e.waiters.splice(0)) w();
  }

  private newIndex(): UserKeywordIndex {
    return new UserKeywordIndex((x) => {
      let y = this.logs.get(x);
      if (y === undefined) {
        if (this.logs.size >= LOG_CACHE) this.logs.clear();
        this.logs.set(x, (y = this.rows.ln(x)));
      }
      return y;
    });
  }

  /** The partition's entry, most recently used now; a missing one starts building (its first slice at once: a small partition is ready now). */
  private entry(key: string): Entry {
    let e = this.parts.get(key);
    if (e) {
      this.parts.delete(key);
      this.parts.set(key, e);
      return e;
    }
    e = { building: { index: this.newIndex() }, bytes: 0, waiters: [] };
    this.parts.set(key, e);
    this.step(key, e);
    if (e.building) this.schedule();
    return e;
  }

  /**
   * Applies the changes logged since the last search. False when this
   * connection is inside a transaction (a rollback would reuse sequence
   * numbers): FTS5 answers then.
   */
  private sync(): boolean {
    if (this.rows.inTransaction) return false;
    if (this.lastSeq === undefined) {
      this.lastSeq = this.rows.window().last;
      return true;
    }
    const changes = this.rows.changesAfter(this.lastSeq, this.patchMax + 1);
    if (!changes.length) return true;
    if (changes[0]!.seq !== this.lastSeq + 1 || changes.length > this.patchMax) {
      // Behind by more than the log keeps, or by a whole import: build again, a slice at a time.
      for (const e of this.parts.values()) this.restart(e, true);
      this.lastSeq = this.rows.window().last;
      return true;
    }
    const byKey = new Map<string, Set<number>>();
    for (const c of changes) if (this.parts.has(c.key)) (byKey.get(c.key) ?? byKey.set(c.key, new Set()).get(c.key)!).add(c.id);
    this.lastSeq = changes.at(-1)!.seq;
    for (const [key, ids] of byKey) {
      const e = this.parts.get(key)!;
      const found = new Map(this.rows.rows(key, [...ids]).map((r) => [r.id, r]));
      for (const index of [e.live, e.building?.index]) {
        if (!index) continue;
        try {
          for (const id of ids) {
            const r = found.get(id);
            if (r) put(index, r);
            else index.remove(id);
          }
        } catch (err) {
          this.fail(key, e, err);
          break;
        }
      }
      if (e.live && !e.building && e.live.size > this.sliceRows && e.live.deadShare > REBUILD_DEAD_SHARE) this.restart(e, false);
    }
    return true;
  }

  /** Builds the partition's index anew; `drop`: the current one is stale and is not searched meanwhile. */
  private restart(e: Entry, drop: boolean): void {
    if (e.failed) return;
    if (drop) e.live = undefined;
    e.building = { index: this.newIndex() };
    this.schedule();
  }

  /** Indexes the next slice of the partition's rows; done: the new index goes live. */
  private step(key: string, e: Entry): void {
    const b = e.building;
    if (!b || e.failed) return;
    const page = this.rows.page(key, b.after, this.sliceRows);
    try {
      for (const r of page) put(b.index, r);
    } catch (err) {
      this.fail(key, e, err);
      return;
    }
    if (page.length) b.after = page.at(-1);
    if (page.length === this.sliceRows) return;
    b.index.settle();
    e.live = b.index;
    e.building = undefined;
    e.bytes = e.live.bytes;
    for (const w of e.waiters.splice(0)) w();
    this.evict(key);
  }

  /** A partition this index cannot mirror exactly: FTS5 answers for it from now on. */
  private fail(key: string, e: Entry, err: unknown): void {
    e.failed = true;
    e.live = undefined;
    e.building = undefined;
    e.bytes = 0;
    for (const w of e.waiters.splice(0)) w();
    this.options.onProblem?.(key, err);
  }

  /** Drops the least recently searched partitions' indexes while all together exceed the bound (never `keep`'s). */
  private evict(keep: string): void {
    let total = this.stats().bytes;
    for (const [key, e] of this.parts) {
      if (total <= this.options.maxBytes) return;
      if (key === keep || !e.live) continue; // a build in progress holds nothing counted yet
      total -= e.bytes;
      this.parts.delete(key);
      for (const w of e.waiters.splice(0)) w();
    }
  }

  /** One build step per turn of the event loop, partitions in turn, until no build is left. */
  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      if (!this.sync()) return; // inside a transaction: the next search resumes the build
      const next = [...this.parts].find(([, e]) => e.building && !e.failed);
      if (!next) return;
      this.step(...next);
      this.schedule();
    });
  }
}
