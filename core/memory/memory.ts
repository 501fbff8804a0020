import type { Db } from "../foundation/store/db.ts";
import { writeTransaction } from "../foundation/store/tx.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Embedder } from "../foundation/ports/embedder.ts";
import type { VectorIndex, VectorStore } from "../foundation/ports/vector-index.ts";
import { VECTOR_STORES } from "../foundation/ports/vector-index.ts";
import { TextRows, type TextRow } from "../foundation/store/text-rows.ts";
import { LiloError, NotFoundError } from "../foundation/errors.ts";
import { thresholdsFor, type EmbedderThresholds } from "./thresholds.ts";
import { keywordSearch } from "./keyword-search.ts";
import type { MemoryKeywordRanker } from "./recall/keyword-index/memory-keyword-index.ts";
import { reciprocalRankFusion } from "./fusion.ts";
import type { EmbeddingGate } from "./embedding-gate.ts";

/**
 * A search hit: the row's id and text with its cosine similarity to the
 * query (`score`; 0 when only the keyword side found the row). Hybrid hits
 * also carry the fused rank score they were ordered by and the bm25 score.
 */
export interface MemoryHit {
  id: number;
  text: string;
  score: number;
  createdAt: string;
  store: VectorStore;
  /** Reciprocal-rank fusion score (hybrid search only); compare within one result. */
  fused?: number;
  /** bm25 score (higher is better), when the keyword side found the row. */
  keyword?: number;
  /** Placed by its weight, not found by a search: `score` is then no similarity (an important memory on every sheet). */
  weight?: number;
  /** Whom it is about ("user", "lilo" or a name), where recorded (notes, important memories). */
  subject?: string;
}

/** Knobs of the hybrid search, tuned on the LoCoMo dev split (`npm run bench:recall`). */
export interface HybridTuning {
  /** RRF damping constant. */
  rrfK: number;
  keywordWeight: number;
  denseWeight: number;
  /** How deep each side looks before fusing. */
  depth: number;
}

const DEFAULT_HYBRID_TUNING: HybridTuning = { rrfK: 20, keywordWeight: 3, denseWeight: 1, depth: 50 };

export interface AddInput {
  text: string;
  userId: string;
  store?: VectorStore;
  /** ISO time or Date; defaults to now (imports keep their original time). */
  createdAt?: string | Date;
  /** Store-specific fields as `MemoryEntry.extra` shows them (a diary entry's day, a thought's origin): what an import of entries written elsewhere keeps. */
  extra?: Record<string, unknown>;
  /** Skip the exact and meaning duplicate checks (the diary is never deduplicated). */
  allowDuplicate?: boolean;
}

/** `vector` is absent when the row was stored while recall is by words only (the reindex embeds it later). */
export type AddResult =
  { added: true; id: number; vector?: Float32Array } | { added: false; reason: "exact-duplicate" | "similar"; duplicateOf: number; score: number };

interface SearchOptions {
  userId: string;
  store?: VectorStore;
  k?: number;
  /** Floor on the cosine of hits found by meaning alone (keyword hits share a word and pass). */
  minScore?: number;
}

/**
 * The one code path that changes stored memories. SQLite is the truth; every
 * add, edit, forget, supersede and restore changes the row and its vector
 * together, so a vector never exists without its row.
 */
export class Memory {
  readonly rows: Record<VectorStore, TextRows>;
  private ready: Promise<void> | undefined;
  /** Tail of the queue of changes; see `exclusive`. */
  private changes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly embedder: Embedder,
    private readonly index: VectorIndex,
    private readonly clock: Clock,
    private readonly opts: {
      notesMinScore?: number | undefined;
      dedupMinScore?: number | undefined;
      hybrid?: Partial<HybridTuning>;
      /** The keyword side in memory (FTS5's ranking per user and store); without it FTS5 ranks. */
      keywords?: MemoryKeywordRanker | undefined;
      /** Whether the embedding model is there; without a gate a missing model is an error, with one recall goes by words. */
      gate?: EmbeddingGate | undefined;
    } = {},
  ) {
    this.rows = Object.fromEntries(VECTOR_STORES.map((s) => [s, new TextRows(db, s)])) as Record<VectorStore, TextRows>;
  }

  /** The floors of the embedder in use (explicit settings win); see thresholds.ts. */
  get thresholds(): EmbedderThresholds {
    return thresholdsFor(this.embedder.id, this.opts);
  }

  /** Loads the embedder and prepares the index once; after a failure the next call tries again. */
  init(): Promise<void> {
    this.ready ??= (async () => {
      const dim = await (this.opts.gate ?? this.embedder).dimension();
      await this.index.init(dim, this.embedder.id);
    })().catch((err: unknown) => {
      // A download or a Qdrant server that failed once must not break memory until a restart.
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  /** Can vectors be made now? False while the embedding model is missing: recall by words only. */
  async canEmbed(): Promise<boolean> {
    return this.opts.gate ? this.opts.gate.usable() : true;
  }

  /** The text's vector, or undefined while the embedding model is missing (recall by words only). */
  async vectorFor(text: string): Promise<Float32Array | undefined> {
    return (await this.canEmbed()) ? this.embed(text) : undefined;
  }

  /** Embeds one text; throws while the embedding model is missing (callers that can do without use `vectorFor`). */
  async embed(text: string): Promise<Float32Array> {
    await this.init();
    const [v] = await this.embedder.embed([text]);
    if (!v) throw new LiloError("embedder", "The embedder returned no vector");
    return v;
  }

  /**
   * Stores a memory unless it is a duplicate: the exact text, or (cosine ≥
   * the dedup threshold) the same meaning in the same store of the same user.
   */
  add(input: AddInput): Promise<AddResult> {
    const store = input.store ?? "notes";
    const text = input.text.trim();
    if (!text) return Promise.reject(new LiloError("invalid-input", "A memory needs text"));
    const createdAt = input.createdAt ? new Date(input.createdAt) : undefined;
    if (createdAt && Number.isNaN(createdAt.getTime())) {
      return Promise.reject(new LiloError("invalid-input", `"${String(input.createdAt)}" is not a date`));
    }
    return this.exclusive(() => this.addNow(input, store, text, createdAt));
  }

  private async addNow(input: AddInput, store: VectorStore, text: string, createdAtDate: Date | undefined): Promise<AddResult> {
    const rows = this.rows[store];
    if (!input.allowDuplicate) {
      const same = rows.findExact(input.userId, text);
      if (same) return { added: false, reason: "exact-duplicate", duplicateOf: same.id, score: 1 };
    }
    const vector = await this.vectorFor(text);
    if (!vector) return this.addWithoutVector(input.userId, rows, text, createdAtDate, input.extra);
    const dedupMinScore = this.thresholds.dedupMinScore;
    if (!input.allowDuplicate && dedupMinScore !== undefined) {
      const [near] = await this.index.search({ vector, store, userId: input.userId, k: 1, minScore: dedupMinScore });
      if (near) return { added: false, reason: "similar", duplicateOf: near.rowId, score: near.score };
    }
    const createdAt = (createdAtDate ?? this.clock.now()).toISOString();
    const id = rows.insert(input.userId, text, createdAt, input.extra);
    await this.upsertOrUndo(() => rows.delete(id), { store, rowId: id, userId: input.userId, vector });
    return { added: true, id, vector };
  }

  /** Stores the row alone (the model is missing): found by its words now, by meaning once the reindex has run. */
  private addWithoutVector(userId: string, rows: TextRows, text: string, createdAt: Date | undefined, extra: AddInput["extra"]): AddResult {
    const id = rows.insert(userId, text, (createdAt ?? this.clock.now()).toISOString(), extra);
    this.opts.gate?.fellBehind();
    return { added: true, id };
  }

  /** Changes a memory's text and re-embeds it (without the model: the text now, the vector with the reindex). */
  edit(store: VectorStore, id: number, text: string): Promise<void> {
    const newText = text.trim();
    if (!newText) return Promise.reject(new LiloError("invalid-input", "A memory needs text; use forget to delete it"));
    return this.exclusive(async () => {
      const row = this.require(store, id);
      const vector = await this.vectorFor(newText);
      this.rows[store].updateText(id, newText, this.clock.now().toISOString());
      if (!vector) return this.opts.gate?.fellBehind();
      await this.upsertOrUndo(() => this.rows[store].updateText(id, row.text, row.updatedAt), { store, rowId: id, userId: row.userId, vector });
    });
  }

  /**
   * Deletes a memory in three steps: mark the row (tombstone, hidden at
   * once), remove its vector, delete the row. Interrupted anywhere, the note
   * stays forgotten: `lilo doctor` sees the tombstone and finishes the delete.
   */
  forget(store: VectorStore, id: number): Promise<TextRow> {
    return this.exclusive(async () => {
      // A superseded row (kept for undo) can be forgotten too: "forget everywhere" erases the history of a fact.
      const row = this.require(store, id, true);
      const indexed = await this.indexReady();
      this.rows[store].tombstone(id, this.clock.now().toISOString());
      if (indexed) await this.index.delete([{ store, rowId: id, userId: row.userId }]);
      this.rows[store].delete(id);
      return row;
    });
  }

  /** Hides a memory without erasing it (corrections): the vector goes, the row stays marked. */
  supersede(store: VectorStore, id: number): Promise<TextRow> {
    return this.exclusive(async () => {
      const row = this.require(store, id);
      if (await this.indexReady()) await this.index.delete([{ store, rowId: id, userId: row.userId }]);
      this.rows[store].setSuperseded(id, this.clock.now().toISOString(), this.clock.now().toISOString());
      return row;
    });
  }

  /** Brings a superseded memory back, row and vector. */
  restore(store: VectorStore, id: number, text?: string): Promise<void> {
    return this.exclusive(async () => {
      const row = this.require(store, id, true);
      const finalText = (text ?? row.text).trim();
      const vector = await this.vectorFor(finalText);
      const now = this.clock.now().toISOString();
      const rows = this.rows[store];
      const put = (t: string, supersededAt: string | null, at: string) =>
        writeTransaction(this.db, () => {
          rows.updateText(id, t, at);
          rows.setSuperseded(id, supersededAt, at);
        });
      put(finalText, null, now);
      if (!vector) return this.opts.gate?.fellBehind();
      await this.upsertOrUndo(() => put(row.text, row.supersededAt, row.updatedAt), { store, rowId: id, userId: row.userId, vector });
    });
  }

  /** Top-k memories of one store, by words and meaning together (see searchHybrid). */
  async search(query: string, opts: SearchOptions): Promise<MemoryHit[]> {
    return this.searchHybrid(query, await this.vectorFor(query), opts);
  }

  /**
   * Hybrid search: bm25 over the store's FTS5 index (names, places, rare
   * words) fused with vector similarity by weighted reciprocal rank. The
   * floor cuts noise where it comes from — a hit found by meaning alone must
   * reach `minScore`; a keyword hit shares a meaningful word and stays.
   * Without a vector (the embedding model is missing) the keyword side alone ranks.
   */
  async searchHybrid(query: string, vector: Float32Array | undefined, opts: SearchOptions): Promise<MemoryHit[]> {
    if (vector) await this.init();
    const store = opts.store ?? "notes";
    const k = opts.k ?? 5;
    const t = { ...DEFAULT_HYBRID_TUNING, ...this.opts.hybrid };
    const depth = Math.max(t.depth, k);
    const dense = vector ? await this.index.search({ vector, store, userId: opts.userId, k: depth }) : [];
    const keyword = keywordSearch(this.db, store, opts.userId, query, depth, this.opts.keywords);
    const cosine = new Map(dense.map((h) => [h.rowId, h.score]));
    const bm25 = new Map(keyword.map((h) => [h.rowId, h.score]));
    const fused = reciprocalRankFusion(
      [
        { ids: dense.map((h) => h.rowId), weight: t.denseWeight },
        { ids: keyword.map((h) => h.rowId), weight: t.keywordWeight },
      ],
      t.rrfK,
    ).filter((f) => bm25.has(f.id) || opts.minScore === undefined || (cosine.get(f.id) ?? -1) >= opts.minScore);
    const top = fused.slice(0, k * 2); // stale index rows are dropped below; a little slack keeps k
    const rows = new Map(this.rows[store].getMany(top.map((f) => f.id)).map((r) => [r.id, r]));
    return top
      .flatMap((f) => {
        const row = rows.get(f.id);
        if (!row || row.supersededAt || row.userId !== opts.userId) return [];
        const sim = cosine.get(f.id);
        const kw = bm25.get(f.id);
        return [
          {
            id: row.id,
            text: row.text,
            score: sim ?? 0,
            fused: f.score,
            createdAt: row.createdAt,
            store,
            ...(kw !== undefined ? { keyword: kw } : {}),
            ...subjectOf(row),
          },
        ];
      })
      .slice(0, k);
  }

  /** Resolves once the user's rows of every store are in the keyword index in memory (at once without one). */
  async keywordsIndexed(userId: string): Promise<void> {
    const keywords = this.opts.keywords;
    if (keywords) await Promise.all(VECTOR_STORES.map((store) => keywords.whenStoreReady(store, userId)));
  }

  /** Like search, for a query that is embedded already (one embedding per turn). */
  async searchVector(vector: Float32Array, opts: SearchOptions): Promise<MemoryHit[]> {
    await this.init();
    const store = opts.store ?? "notes";
    const hits = await this.index.search({
      vector,
      store,
      userId: opts.userId,
      k: opts.k ?? 5,
      ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
    });
    const rows = new Map(this.rows[store].getMany(hits.map((h) => h.rowId)).map((r) => [r.id, r]));
    return hits.flatMap((h) => {
      const row = rows.get(h.rowId);
      // A hit whose row is gone or hidden is stale index data: `lilo doctor` reports it.
      if (!row || row.supersededAt || row.userId !== opts.userId) return [];
      return [{ id: row.id, text: row.text, score: h.score, createdAt: row.createdAt, store, ...subjectOf(row) }];
    });
  }

  /**
   * Runs changes one after another. Interleaved at their awaits, two adds of
   * the same fact both pass the duplicate check, and an edit that re-embeds
   * while a forget runs writes a vector for a row that is gone.
   */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.changes.then(fn, fn);
    this.changes = run.catch(() => undefined);
    return run;
  }

  /**
   * Prepares the index for a removal; false while the embedding model is
   * missing: the vector stays until the reindex empties the index, and no
   * search by meaning runs before that.
   */
  private async indexReady(): Promise<boolean> {
    if (!(await this.canEmbed())) {
      this.opts.gate?.fellBehind();
      return false;
    }
    await this.init();
    return true;
  }

  private require(store: VectorStore, id: number, allowSuperseded = false): TextRow {
    const row = this.rows[store].get(id);
    if (!row || row.forgottenAt || (!allowSuperseded && row.supersededAt)) throw new NotFoundError(`No ${store} entry with id ${id}`);
    return row;
  }

  /** Writes the vector; if that fails, puts the row back as it was so the two never diverge. */
  private async upsertOrUndo(undo: () => void, record: { store: VectorStore; rowId: number; userId: string; vector: Float32Array }): Promise<void> {
    try {
      await this.index.upsert([record]);
    } catch (err) {
      undo();
      throw new LiloError("vector-index", `Could not store the vector of ${record.store} #${record.rowId}; the change was undone`, { cause: err });
    }
  }
}

/** The subject field of a hit, when the row records one. */
function subjectOf(row: TextRow): { subject?: string } {
  return typeof row.extra.subject === "string" && row.extra.subject ? { subject: row.extra.subject } : {};
}
