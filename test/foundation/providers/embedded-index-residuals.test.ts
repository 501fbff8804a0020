import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EmbeddedIndex, type EmbeddedIndexOptions } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import type { IndexStore, VectorRecord } from "../../../core/foundation/ports/vector-index.ts";
import { VectorTable } from "../../../core/foundation/store/vectors/vector-table.ts";
import { indexFiles } from "../../helpers/index-files.ts";
import { cosine as cos } from "../../../core/foundation/util/vector.ts";

const EMB = "emb-test";
const DIM = 48;
const N = 400;

/** A deterministic pseudo-random vector per seed. */
function vecOf(seed: number): Float32Array {
  const v = new Float32Array(DIM);
  let x = (seed * 2654435761) >>> 0;
  for (let i = 0; i < DIM; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    v[i] = (x / 0x7fffffff) * 2 - 1;
  }
  return v;
}
const msg = (rowId: number, vector = vecOf(rowId)): VectorRecord<IndexStore> => ({ store: "messages", rowId, userId: "u1", vector });
/** The exact top k by float cosine over the vectors held: the ranking float rescoring gives. */
const truth = (vectors: Map<number, Float32Array>, q: Float32Array, k: number) =>
  [...vectors]
    .map(([id, v]) => ({ id, s: cos(q, v) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, k);

const spyFloats = () => vi.spyOn(VectorTable.prototype, "floats");

describe("EmbeddedIndex: a large partition rescores its candidates in RAM (residuals)", () => {
  const files = indexFiles("lilo-residuals-");
  const open = (opts: EmbeddedIndexOptions = {}) => new EmbeddedIndex(files.db(), { messageGraphMinSize: 200, ...opts });
  let floatReads: ReturnType<typeof spyFloats>;
  const vectors = new Map<number, Float32Array>();
  const queries = [3, 77, 150, 299, 1234, 98765].map((s) => vecOf(s * 7919));

  /**
   * Each query's top 10 equals the exact float ranking, scores within the
   * residual's precision. Among all rows (`rowIds`): the candidates come from
   * the exact int8 scan, not the graph (built on several threads, it may
   * differ from run to run), and are rescored the same way.
   */
  async function expectExact(index: EmbeddedIndex): Promise<void> {
    for (const q of queries) {
      const hits = await index.search({ vector: q, store: "messages", userId: "u1", k: 10, rowIds: [...vectors.keys()] });
      const want = truth(vectors, q, 10);
      expect(hits.map((h) => h.rowId)).toEqual(want.map((w) => w.id));
      hits.forEach((h, i) => expect(Math.abs(h.score - want[i]!.s)).toBeLessThan(1e-4));
    }
  }

  beforeEach(async () => {
    vectors.clear();
    for (let id = 1; id <= N; id++) vectors.set(id, vecOf(id));
    const a = open({ graphBuild: "inline" });
    await a.init(DIM, EMB);
    await a.upsert([...vectors].map(([id, v]) => msg(id, v)));
    await a.close(); // saves the snapshot with the graph: int8 codes only
    floatReads = spyFloats();
  });
  afterEach(() => {
    floatReads.mockRestore();
  });

  it("reads float vectors only below the graph threshold, ranking the same either way", async () => {
    const index = open({ graphBuild: "inline" });
    await index.init(DIM, EMB);
    expect(index.copyState().graphs).toBe(1);
    expect(index.copyState().residualBytes).toBeGreaterThanOrEqual(N * (DIM + 1));
    floatReads.mockClear();
    await expectExact(index);
    // Through the graph: a stored vector finds itself first, cosine 1.
    for (const id of [1, 200, 400]) {
      const [top] = await index.search({ vector: vecOf(id), store: "messages", userId: "u1", k: 5 });
      expect(top).toMatchObject({ rowId: id });
      expect(top!.score).toBeCloseTo(1, 6);
    }
    expect(index.copyState().graphSearches).toBeGreaterThanOrEqual(3);
    expect(floatReads).not.toHaveBeenCalled();

    const small = open({ graphBuild: "inline", messageGraphMinSize: Number.POSITIVE_INFINITY });
    await small.init(DIM, EMB);
    expect(small.copyState()).toMatchObject({ graphs: 0, residualBytes: 0 });
    await expectExact(small);
    expect(floatReads).toHaveBeenCalled();
  });

  it("after a start from the snapshot reads floats only until the residuals are filled in the background", async () => {
    const index = open({ graphBuild: "background" });
    await index.init(DIM, EMB);
    floatReads.mockClear();
    await expectExact(index); // residuals still unknown: the candidates' floats are read
    expect(floatReads).toHaveBeenCalled();
    await index.graphsBuilt();
    floatReads.mockClear();
    await expectExact(index);
    expect(floatReads).not.toHaveBeenCalled();
  });

  it("stays in step with edits, deletions and another process's writes", async () => {
    const index = open({ graphBuild: "inline" });
    await index.init(DIM, EMB);
    const q = queries[0]!;
    // Edited: row 5 now points the query's way; rows 10..60 deleted (the last rows move into their slots).
    vectors.set(5, q);
    await index.upsert([msg(5, q)]);
    const gone = Array.from({ length: 51 }, (_, i) => i + 10);
    await index.delete(gone.map((rowId) => ({ store: "messages" as const, rowId, userId: "u1" })));
    for (const id of gone) vectors.delete(id);
    // Another process (the CLI) edits row 7 and adds row 999.
    const cli = open({ graphBuild: "inline" });
    await cli.init(DIM, EMB);
    const seven = vecOf(424242);
    await cli.upsert([msg(7, seven), msg(999, queries[1]!)]);
    vectors.set(7, seven).set(999, queries[1]!);
    floatReads.mockClear();
    const top = await index.search({ vector: q, store: "messages", userId: "u1", k: 3 });
    expect(top[0]).toMatchObject({ rowId: 5 });
    expect(top[0]!.score).toBeGreaterThan(0.9999);
    await expectExact(index);
    for (const q2 of [...queries, ...gone.map(vecOf)]) {
      const ids = (await index.search({ vector: q2, store: "messages", userId: "u1", k: 100 })).map((h) => h.rowId);
      expect(ids.filter((id) => gone.includes(id))).toEqual([]);
    }
    // Changes applied with their floats at hand keep rescoring in RAM; only the caught-up rows (7, 999) were read once.
    const reads = floatReads.mock.calls.flatMap((c) => c[1]);
    expect(reads.every((id) => id === 7 || id === 999)).toBe(true);
  });

  it("rescores from SQLite once LILO_VECTOR_RESIDUAL_MB is spent", async () => {
    const index = open({ graphBuild: "inline", residualBudgetMb: 0.001 });
    await index.init(DIM, EMB);
    expect(index.copyState()).toMatchObject({ graphs: 1, residualBytes: 0 });
    floatReads.mockClear();
    await expectExact(index);
    expect(floatReads).toHaveBeenCalled();
  });
});
