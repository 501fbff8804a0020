/**
 * The tables the removed sqlite-vec backend left in Lilo's SQLite file, read
 * and dropped without the sqlite-vec extension (the embedded index takes the
 * vectors over once, see core/foundation/providers/embedded-index/take-over-sqlite-vec.ts).
 *
 * A vec0 virtual table keeps its data in ordinary "shadow" tables, which plain
 * SQLite reads: `<table>_chunks` has one row per chunk of a partition (user and,
 * later, store) with a validity bitmap and the rowid of every slot;
 * `<table>_vector_chunks00` the float32 vectors of that chunk, slot after slot;
 * `<table>_rowids` one row per live vector. Written by sqlite-vec 0.1.x.
 */
import { VectorIndexError } from "../../errors.ts";
import type { Db } from "../db.ts";

/** The vec0 table of the sqlite-vec backend. */
const VEC_TABLE = "vec_memory";
/** Its one-row model record (dimension, embedder id). */
const VEC_META = "vec_memory_meta";
const CHUNKS = `${VEC_TABLE}_chunks`;
const VECTOR_CHUNKS = `${VEC_TABLE}_vector_chunks00`;
const ROWIDS = `${VEC_TABLE}_rowids`;

/** The model record of the vec0 table. */
interface VecMeta {
  dimension: number;
  embedderId: string;
}

/** One live vector of the vec0 table: its encoded rowid, user and floats. */
interface VecRow {
  rowid: bigint;
  userId: string;
  vector: Float32Array;
}

/** Read and drop access to the sqlite-vec backend's leftovers. */
export class OldVec0Tables {
  constructor(private readonly db: Db) {}

  /** Whether any of the backend's data tables is still there (the declaration alone holds nothing). */
  present(): boolean {
    return this.dataTables().length > 0;
  }

  /** The model record, or undefined without one. */
  meta(): VecMeta | undefined {
    if (!this.exists(VEC_META)) return undefined;
    return this.db.prepare(`SELECT dimension, embedder_id AS embedderId FROM ${VEC_META} WHERE id = 1`).get() as VecMeta | undefined;
  }

  /**
   * Every live vector, one chunk at a time. Throws when the tables are not the
   * layout Lilo's backend wrote (user_id the first partition key, float32
   * vectors of `dimension`) or do not add up: nothing is taken over then.
   */
  *chunks(dimension: number): Generator<VecRow[]> {
    this.checkLayout(dimension);
    const expected = (this.db.prepare(`SELECT COUNT(*) AS n FROM ${ROWIDS}`).get() as { n: number }).n;
    // One chunk per statement run, no open iterator: the caller writes the vectors between two chunks.
    const ids = this.db.prepare(`SELECT chunk_id FROM ${CHUNKS} ORDER BY chunk_id`).pluck().all() as number[];
    const chunk = this.db.prepare(
      `SELECT c.chunk_id AS chunkId, c.size, c.validity, c.rowids, c.partition00 AS userId, v.vectors
         FROM ${CHUNKS} c JOIN ${VECTOR_CHUNKS} v ON v.rowid = c.chunk_id WHERE c.chunk_id = ?`,
    );
    let seen = 0;
    for (const id of ids) {
      const c = chunk.get(id) as { chunkId: number; size: number; validity: Buffer; rowids: Buffer; userId: string; vectors: Buffer } | undefined;
      if (!c) throw new VectorIndexError(`${CHUNKS} chunk ${id} has no vectors in ${VECTOR_CHUNKS}`);
      const bytes = dimension * 4;
      if (c.vectors.byteLength !== c.size * bytes || c.rowids.byteLength !== c.size * 8 || c.validity.byteLength * 8 < c.size) {
        throw new VectorIndexError(`${CHUNKS} chunk ${c.chunkId} does not hold ${c.size} vectors of ${dimension} dimensions`);
      }
      const rows: VecRow[] = [];
      for (let slot = 0; slot < c.size; slot++) {
        if ((c.validity[slot >> 3]! & (1 << (slot & 7))) === 0) continue;
        const vector = new Float32Array(dimension);
        new Uint8Array(vector.buffer).set(c.vectors.subarray(slot * bytes, (slot + 1) * bytes));
        rows.push({ rowid: c.rowids.readBigInt64LE(slot * 8), userId: String(c.userId), vector });
      }
      seen += rows.length;
      if (rows.length) yield rows;
    }
    if (seen !== expected) throw new VectorIndexError(`${CHUNKS} holds ${seen} live vectors, ${ROWIDS} lists ${expected}`);
  }

  /**
   * Drops the model record and every data table of the vec0 table; call inside
   * a transaction. The `vec_memory` declaration itself stays: dropping a
   * virtual table needs its module (the extension), and the declaration
   * occupies no page — without its shadow tables it is an empty name nothing reads.
   */
  drop(): void {
    for (const name of this.dataTables()) this.db.exec(`DROP TABLE IF EXISTS "${name}"`);
  }

  /** The ordinary tables of the backend (`vec_memory_meta` and vec0's shadow tables), never the declaration. */
  private dataTables(): string[] {
    return this.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name GLOB ?`)
      .pluck()
      .all(`${VEC_TABLE}_*`) as string[];
  }

  private exists(name: string): boolean {
    return this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;
  }

  /** The declaration must be the one Lilo wrote: user_id the first partition key, `FLOAT[dimension]` embeddings. */
  private checkLayout(dimension: number): void {
    const decl = this.db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).pluck().get(VEC_TABLE) as string | undefined;
    if (!decl) throw new VectorIndexError(`The sqlite-vec model record exists without its table ${VEC_TABLE}`);
    const firstPartition = /\(\s*(\w+)\s+TEXT\s+PARTITION\s+KEY/i.exec(decl)?.[1];
    const declared = Number(/\bFLOAT\[(\d+)\]/i.exec(decl)?.[1]);
    if (firstPartition !== "user_id" || declared !== dimension) {
      throw new VectorIndexError(`${VEC_TABLE} is not the layout Lilo's sqlite-vec backend wrote (${decl.replace(/\s+/g, " ")})`);
    }
    for (const t of [CHUNKS, VECTOR_CHUNKS, ROWIDS]) if (!this.exists(t)) throw new VectorIndexError(`${VEC_TABLE} lacks its table ${t}`);
  }
}
