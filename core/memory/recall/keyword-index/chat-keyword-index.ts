/**
 * The chat log's keyword ranking in memory, one index per user
 * (user-keyword-index.ts) over the rows of `messages_ctx_user_fts`, kept
 * equal to the table through the change log the triggers fill
 * (`chat_keyword_changes`, read by sequence number before each search, so
 * writes of other processes — the CLI, an import, "forget" — are seen by the
 * next search). A user's index is built a slice of rows at a time between
 * other work; until it is ready (or when this cannot answer exactly) the
 * search asks FTS5, which gives the same ranking. Bounded memory: the least
 * recently searched users' indexes are dropped beyond `maxBytes`.
 */
import type { ChatKeywordRow, ChatKeywordRows } from "../../../foundation/store/chat-keyword-rows.ts";
import type { CandidateFilter, CandidateRow, ChatRanker } from "../../../foundation/store/chat-search.ts";
import { UserKeywordIndex } from "./user-keyword-index.ts";
import { matchPhrases } from "./match-phrases.ts";

/** Options: the memory bound, and (tests) smaller slices and pages. */
export interface ChatKeywordIndexOptions {
  /** Bytes all users' indexes may take together (the searching user's is kept even if larger). */
  maxBytes: number;
  /** Rows read and indexed in one step of a build. */
  sliceRows?: number;
  /** Best rows selected at first in a ranking (then four times as many). */
  firstPage?: number;
  /** More changes than this at once: the indexes are rebuilt (in slices) rather than patched during a search. */
  patchMax?: number;
  /** Told when a user's log cannot be indexed exactly (FTS5 keeps answering for them). */
  onProblem?: (userId: string, error: unknown) => void;
}

/** Default of `patchMax`: re-reading 2,000 rows in a search costs about what FTS5's ranking does at 100k messages. */
const PATCH_MAX = 2000;
/** Logarithms remembered at most (then forgotten all at once). */
const LOG_CACHE = 10_000;
/** A user's index is rebuilt once this share of its slots are dead (changed rows: each new message also rewrites the one before, so new messages alone reach 0.3 once the log has grown by about 75 %). */
const REBUILD_DEAD_SHARE = 0.3;

/**
 * Time bounds and stored times are compared as strings in JavaScript (UTF-16
 * code units) where SQLite compares UTF-8 bytes: the same order unless a
 * string holds a character from U+D800 on. Such bounds go to FTS5.
 */
const comparable = (s: string | undefined): boolean => s === undefined || !/[\uD800-\uFFFF]/.test(s);

/** A time SQLite would order differently from JavaScript: the user's log is left to FTS5. */
export class IncomparableTimeError extends Error {}

/** Indexes one FTS row with its message's filter columns. */
function put(index: UserKeywordIndex, r: ChatKeywordRow): void {
  if (r.created_at !== null && !comparable(r.created_at)) throw new IncomparableTimeError(`message ${r.id}: a time SQLite orders otherwise`);
  const message = r.present ? { conversationId: r.conversation_id!, createdAt: r.created_at!, redacted: r.redacted === 1 } : undefined;
  index.put(r.id, r.text, r.context, message);
}

interface Build {
  index: UserKeywordIndex;
  afterId: number;
}

interface UserEntry {
  /** The index searched; undefined until the first build is done. */
  live?: UserKeywordIndex;
  building?: Build;
  failed?: boolean;
  bytes: number;
  waiters: (() => void)[];
}

export class ChatKeywordIndex implements ChatRanker {
  private readonly users = new Map<string, UserEntry>();
  /** SQLite's logarithms asked for before (a search needs one per word; the arguments repeat). */
  private readonly logs = new Map<number, number>();
  private lastSeq: number | undefined;
  private timer: NodeJS.Immediate | undefined;
  private closed = false;
  private readonly sliceRows: number;
  private readonly firstPage: number;
  private readonly patchMax: number;

  constructor(
    private readonly rows: ChatKeywordRows,
    private readonly options: ChatKeywordIndexOptions,
  ) {
    this.sliceRows = options.sliceRows ?? 500; // 10–30 ms of work: the event loop stays responsive while a long log is indexed
    this.firstPage = options.firstPage ?? 512;
    this.patchMax = options.patchMax ?? PATCH_MAX;
  }

  /** The user's matching messages best first, filtered; undefined: FTS5 must answer (index not ready, query or bounds not of the kind ported). */
  candidates(f: CandidateFilter): IterableIterator<CandidateRow> | undefined {
    const phrases = f.match === undefined ? undefined : matchPhrases(f.match);
    if (!phrases || !comparable(f.from) || !comparable(f.to) || !this.sync()) return undefined;
    const e = this.entry(f.userId);
    if (e.building) this.schedule(); // a build paused while a transaction was open goes on
    return e.live?.rank(phrases, f.contextWeight, f, this.firstPage);
  }

  /** Resolves once the user's index is built (starts the build; benchmark, `recall.indexMessages`, tests). */
  whenReady(userId: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.sync();
    const e = this.entry(userId);
    if (e.live || e.failed) return Promise.resolve();
    return new Promise((resolve) => e.waiters.push(resolve));
  }

  /** Users indexed and the bytes their indexes took when built (tests). */
  stats(): { users: number; bytes: number } {
    let bytes = 0;
    for (const e of this.users.values()) bytes += e.bytes;
    return { users: this.users.size, bytes };
  }

  /** Stops building (no more timers). */
  close(): void {
    this.closed = true;
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    for (const e of this.users.values()) for (const w of e.waiters.splice(0)) w();
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

  /** The user's entry, most recently used now; a missing one starts building (its first slice at once: a small log is ready now). */
  private entry(userId: string): UserEntry {
    let e = this.users.get(userId);
    if (e) {
      this.users.delete(userId);
      this.users.set(userId, e);
      return e;
    }
    e = { building: { index: this.newIndex(), afterId: 0 }, bytes: 0, waiters: [] };
    this.users.set(userId, e);
    this.step(userId, e);
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
      for (const e of this.users.values()) this.restart(e, true);
      this.lastSeq = this.rows.window().last;
      return true;
    }
    const byUser = new Map<string, Set<number>>();
    for (const c of changes) if (this.users.has(c.user_id)) (byUser.get(c.user_id) ?? byUser.set(c.user_id, new Set()).get(c.user_id)!).add(c.message_id);
    this.lastSeq = changes.at(-1)!.seq;
    for (const [userId, ids] of byUser) {
      const e = this.users.get(userId)!;
      const found = new Map(this.rows.rows(userId, [...ids]).map((r) => [r.id, r]));
      for (const index of [e.live, e.building?.index]) {
        if (!index) continue;
        try {
          for (const id of ids) {
            const r = found.get(id);
            if (r) put(index, r);
            else index.remove(id);
          }
        } catch (err) {
          this.fail(userId, e, err);
          break;
        }
      }
      if (e.live && !e.building && e.live.size > this.sliceRows && e.live.deadShare > REBUILD_DEAD_SHARE) this.restart(e, false);
    }
    return true;
  }

  /** Builds the user's index anew; `drop`: the current one is stale and is not searched meanwhile. */
  private restart(e: UserEntry, drop: boolean): void {
    if (e.failed) return;
    if (drop) e.live = undefined;
    e.building = { index: this.newIndex(), afterId: 0 };
    this.schedule();
  }

  /** Indexes the next slice of the user's rows; done: the new index goes live. */
  private step(userId: string, e: UserEntry): void {
    const b = e.building;
    if (!b || e.failed) return;
    const page = this.rows.page(userId, b.afterId, this.sliceRows);
    try {
      for (const r of page) put(b.index, r);
    } catch (err) {
      this.fail(userId, e, err);
      return;
    }
    if (page.length) b.afterId = page.at(-1)!.id;
    if (page.length === this.sliceRows) return;
    b.index.settle();
    e.live = b.index;
    e.building = undefined;
    e.bytes = e.live.bytes;
    for (const w of e.waiters.splice(0)) w();
    this.evict(userId);
  }

  /** A log this index cannot mirror exactly: FTS5 answers for the user from now on. */
  private fail(userId: string, e: UserEntry, err: unknown): void {
    e.failed = true;
    e.live = undefined;
    e.building = undefined;
    e.bytes = 0;
    for (const w of e.waiters.splice(0)) w();
    this.options.onProblem?.(userId, err);
  }

  /** Drops the least recently searched users' indexes while all together exceed the bound (never `keep`'s). */
  private evict(keep: string): void {
    let total = this.stats().bytes;
    for (const [userId, e] of this.users) {
      if (total <= this.options.maxBytes) return;
      if (userId === keep || !e.live) continue; // a build in progress holds nothing counted yet
      total -= e.bytes;
      this.users.delete(userId);
      for (const w of e.waiters.splice(0)) w();
    }
  }

  /** One build step per turn of the event loop, users in turn, until no build is left. */
  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      if (!this.sync()) return; // inside a transaction: the next search resumes the build
      const next = [...this.users].find(([, e]) => e.building && !e.failed);
      if (!next) return;
      this.step(...next);
      this.schedule();
    });
  }
}
