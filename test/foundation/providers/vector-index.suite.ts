import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VectorIndexError } from "../../../core/foundation/errors.ts";
import type { IndexStore, VectorIndex, VectorKey, VectorRecord, VectorStore } from "../../../core/foundation/ports/vector-index.ts";

/** One backend under test: a fresh, empty index on fresh storage. */
export interface VectorIndexHarness {
  index: VectorIndex;
  /** Closes the current index and opens a new one on the same storage (new connection / new client). */
  reopen(): Promise<VectorIndex>;
  /** Closes everything and removes the storage. */
  cleanup(): Promise<void>;
}

const EMB = "test-embedder-a";
/** A realistic, long user id (sqlite-vec stored text longer than 12 bytes out of line; every backend must keep it whole). */
const ALICE = "telegram:100200300400";

export const vec = (...xs: number[]): Float32Array => Float32Array.from(xs);

import { cosine } from "../../../core/foundation/util/vector.ts";
export { cosine };

const rec = (store: VectorStore, rowId: number, userId: string, vector: Float32Array): VectorRecord => ({ store, rowId, userId, vector });
const sortKeys = (keys: VectorKey<IndexStore>[]): VectorKey<IndexStore>[] =>
  [...keys]
    .map(({ store, rowId, userId }) => ({ store, rowId, userId }))
    .sort((a, b) => a.store.localeCompare(b.store) || a.rowId - b.rowId || a.userId.localeCompare(b.userId));

/** The contract every VectorIndex backend must satisfy. */
export function describeVectorIndex(name: string, makeIndex: () => Promise<VectorIndexHarness>): void {
  describe(`VectorIndex contract: ${name}`, () => {
    let h: VectorIndexHarness;
    let index: VectorIndex;

    beforeEach(async () => {
      h = await makeIndex();
      index = h.index;
    });
    afterEach(async () => {
      await h.cleanup();
    });

    it("refuses to work before init", async () => {
      await expect(index.search({ vector: vec(1, 0, 0, 0), store: "notes", userId: "u1", k: 1 })).rejects.toBeInstanceOf(VectorIndexError);
    });

    it("returns the nearest rows best first with cosine-similarity scores", async () => {
      await index.init(4, EMB);
      const vectors: Record<number, Float32Array> = {
        1: vec(1, 0, 0, 0),
        2: vec(0.9, 0.1, 0, 0),
        3: vec(0, 1, 0, 0),
        4: vec(0.5, 0.5, 0.5, 0),
        5: vec(-1, 0, 0, 0.2),
      };
      await index.upsert(Object.entries(vectors).map(([id, v]) => rec("notes", Number(id), "u1", v)));
      const q = vec(2, 0.1, 0, 0); // not unit length: scores must still be cosine
      const hits = await index.search({ vector: q, store: "notes", userId: "u1", k: 10 });
      const expected = Object.entries(vectors)
        .map(([id, v]) => ({ rowId: Number(id), score: cosine(q, v) }))
        .sort((a, b) => b.score - a.score);
      expect(hits.map((x) => x.rowId)).toEqual(expected.map((x) => x.rowId));
      hits.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(expected[i]!.score, 4);
        expect(hit).toMatchObject({ store: "notes", userId: "u1" });
      });
    });

    it("never crosses users or stores, even for identical vectors and row ids", async () => {
      await index.init(4, EMB);
      const v = vec(0.3, 0.4, 0.5, 0.6);
      const all: VectorRecord[] = [
        rec("notes", 1, ALICE, v),
        rec("notes", 2, "bob", v),
        rec("diary", 1, ALICE, v),
        rec("diary", 3, "bob", v),
        rec("important", 1, ALICE, v),
        rec("thoughts", 7, "bob", v),
      ];
      await index.upsert(all);
      for (const store of ["notes", "diary", "important", "thoughts"] as const) {
        for (const userId of [ALICE, "bob", "carol"]) {
          const hits = await index.search({ vector: v, store, userId, k: 10 });
          const want = all.filter((r) => r.store === store && r.userId === userId).map((r) => r.rowId);
          expect(
            hits.map((x) => x.rowId),
            `${store}/${userId}`,
          ).toEqual(want);
          for (const hit of hits) {
            expect(hit.store).toBe(store);
            expect(hit.userId).toBe(userId);
            expect(hit.score).toBeCloseTo(1, 4);
          }
        }
      }
    });

    it("leaves out hits below minScore", async () => {
      await index.init(4, EMB);
      await index.upsert([
        rec("notes", 1, "u1", vec(1, 0, 0, 0)), // 1
        rec("notes", 2, "u1", vec(0.8, 0.6, 0, 0)), // 0.8
        rec("notes", 3, "u1", vec(0.4, 0, 0.9165, 0)), // ~0.4
        rec("notes", 4, "u1", vec(0, 0, 0, 1)), // 0
        rec("notes", 5, "u1", vec(-1, 0, 0, 0)), // -1
      ]);
      const q = { vector: vec(1, 0, 0, 0), store: "notes" as const, userId: "u1", k: 10 };
      expect((await index.search({ ...q, minScore: 0.5 })).map((x) => x.rowId)).toEqual([1, 2]);
      expect((await index.search({ ...q, minScore: 0.3 })).map((x) => x.rowId)).toEqual([1, 2, 3]);
      expect(await index.search({ ...q, minScore: 1.01 })).toEqual([]);
      expect((await index.search(q)).map((x) => x.rowId)).toEqual([1, 2, 3, 4, 5]);
    });

    it("returns at most k hits, the k best", async () => {
      await index.init(4, EMB);
      await index.upsert(Array.from({ length: 10 }, (_, i) => rec("thoughts", i + 1, "u1", vec(1, i, 0, 0))));
      const hits = await index.search({ vector: vec(1, 0, 0, 0), store: "thoughts", userId: "u1", k: 3 });
      expect(hits.map((x) => x.rowId)).toEqual([1, 2, 3]);
      expect(await index.search({ vector: vec(1, 0, 0, 0), store: "thoughts", userId: "u1", k: 0 })).toEqual([]);
    });

    it("upsert of the same key replaces its vector", async () => {
      await index.init(4, EMB);
      await index.upsert([rec("important", 42, "u1", vec(1, 0, 0, 0)), rec("important", 43, "u1", vec(0, 0, 1, 0))]);
      await index.upsert([rec("important", 42, "u1", vec(0, 1, 0, 0))]); // re-embedded text
      expect(sortKeys(await index.keys())).toEqual(
        sortKeys([
          { store: "important", rowId: 42, userId: "u1" },
          { store: "important", rowId: 43, userId: "u1" },
        ]),
      );
      const hits = await index.search({ vector: vec(0, 1, 0, 0), store: "important", userId: "u1", k: 10 });
      expect(hits[0]).toMatchObject({ rowId: 42 });
      expect(hits[0]!.score).toBeCloseTo(1, 4);
      expect(hits.filter((x) => x.rowId === 42)).toHaveLength(1);
    });

    it("delete removes the keys it knows, ignoring the rest", async () => {
      await index.init(4, EMB);
      await index.upsert([rec("notes", 1, "u1", vec(1, 0, 0, 0)), rec("notes", 2, "u1", vec(1, 1, 0, 0)), rec("diary", 1, "u1", vec(1, 0, 0, 0))]);
      await index.delete([
        { store: "notes", rowId: 1, userId: "u1" },
        { store: "notes", rowId: 999, userId: "u1" },
        { store: "thoughts", rowId: 1, userId: "u1" },
      ]);
      await index.delete([]);
      expect(sortKeys(await index.keys())).toEqual(
        sortKeys([
          { store: "diary", rowId: 1, userId: "u1" },
          { store: "notes", rowId: 2, userId: "u1" },
        ]),
      );
      const hits = await index.search({ vector: vec(1, 0, 0, 0), store: "notes", userId: "u1", k: 10 });
      expect(hits.map((x) => x.rowId)).toEqual([2]);
    });

    it("keys() lists exactly what is there, across many rows", async () => {
      await index.init(4, EMB);
      expect(await index.keys()).toEqual([]);
      const records = Array.from({ length: 300 }, (_, i) =>
        rec((["notes", "important", "thoughts", "diary"] as const)[i % 4]!, 1000 + i, `user-${i % 3}`, vec(1, i % 7, i % 5, 1)),
      );
      await index.upsert(records);
      expect(sortKeys(await index.keys())).toEqual(sortKeys(records));
    });

    it("rejects vectors of the wrong dimension", async () => {
      await index.init(4, EMB);
      await expect(index.upsert([rec("notes", 1, "u1", vec(1, 0, 0))])).rejects.toBeInstanceOf(VectorIndexError);
      await expect(index.search({ vector: vec(1, 0), store: "notes", userId: "u1", k: 1 })).rejects.toBeInstanceOf(VectorIndexError);
    });

    it("init with another dimension or embedder throws VectorIndexError pointing to `lilo reindex`", async () => {
      await index.init(4, EMB);
      await index.upsert([rec("notes", 1, "u1", vec(1, 0, 0, 0))]);
      const other = await h.reopen();
      await expect(other.init(8, EMB)).rejects.toThrow(/lilo reindex/);
      await expect(other.init(4, "another-model")).rejects.toBeInstanceOf(VectorIndexError);
      await expect(other.init(4, "another-model")).rejects.toThrow(/lilo reindex/);
      await other.init(4, EMB);
      expect(await other.keys()).toHaveLength(1);
    });

    it("reset() starts an empty index, for any dimension or model", async () => {
      await index.init(4, EMB);
      await index.upsert([rec("notes", 1, "u1", vec(1, 0, 0, 0)), rec("diary", 2, "u2", vec(0, 1, 0, 0))]);
      await index.reset(3, "model-b");
      expect(await index.keys()).toEqual([]);
      await index.upsert([rec("notes", 1, "u1", vec(0, 0, 1))]);
      const hits = await index.search({ vector: vec(0, 0, 1), store: "notes", userId: "u1", k: 5 });
      expect(hits).toHaveLength(1);
      expect(hits[0]!.score).toBeCloseTo(1, 4);
      const other = await h.reopen();
      await expect(other.init(4, EMB)).rejects.toBeInstanceOf(VectorIndexError);
      await other.init(3, "model-b");
      expect(sortKeys(await other.keys())).toEqual([{ store: "notes", rowId: 1, userId: "u1" }]);
    });

    it("keeps its data across a reopen", async () => {
      await index.init(4, EMB);
      await index.upsert([rec("notes", 1, "u1", vec(1, 0, 0, 0)), rec("notes", 2, "u1", vec(0, 1, 0, 0)), rec("diary", 3, "u2", vec(0, 0, 1, 0))]);
      const reopened = await h.reopen();
      await reopened.init(4, EMB);
      expect(sortKeys(await reopened.keys())).toHaveLength(3);
      const hits = await reopened.search({ vector: vec(0.1, 1, 0, 0), store: "notes", userId: "u1", k: 5 });
      expect(hits.map((x) => x.rowId)).toEqual([2, 1]);
    });
  });
}
