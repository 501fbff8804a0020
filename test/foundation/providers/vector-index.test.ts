import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QdrantClient } from "@qdrant/js-client-rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VectorIndexError } from "../../../core/foundation/errors.ts";
import { QdrantIndex, qdrantPointId } from "../../../core/foundation/providers/qdrant-index.ts";
import { fromVecRowid } from "../../../core/foundation/providers/embedded-index/take-over-sqlite-vec.ts";
import { EmbeddedIndex, type EmbeddedIndexOptions } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import type { VectorIndex } from "../../../core/foundation/ports/vector-index.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { startFakeQdrant, type FakeQdrant } from "../../fakes/fake-qdrant.ts";
import { describeVectorIndex, vec, type VectorIndexHarness } from "./vector-index.suite.ts";

let seq = 0;
const uniqueCollection = () => `lilo_test_${process.pid}_${Date.now().toString(36)}_${seq++}`;

async function sqliteHarness(make: (db: Db) => VectorIndex = (db) => new EmbeddedIndex(db)): Promise<VectorIndexHarness & { sql(): Db }> {
  const dir = mkdtempSync(join(tmpdir(), "lilo-vec-"));
  const file = join(dir, "lilo.db");
  let db = openDatabase(file);
  let index = make(db);
  return {
    index,
    sql: () => db,
    async reopen() {
      await index.close();
      db.close();
      db = openDatabase(file);
      index = make(db);
      return index;
    },
    async cleanup() {
      await index.close();
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function qdrantHarness(url: string, apiKey: string | undefined, onCleanup: () => Promise<void>) {
  const collection = uniqueCollection();
  const make = () => new QdrantIndex({ url, collection, ...(apiKey ? { apiKey } : {}) });
  let index = make();
  return {
    collection,
    harness: {
      index,
      async reopen() {
        await index.close();
        index = make();
        return index;
      },
      async cleanup() {
        await index.close();
        await onCleanup();
      },
    } satisfies VectorIndexHarness,
  };
}

describeVectorIndex("embedded (exact int8 scan)", () => sqliteHarness((db) => new EmbeddedIndex(db)));
// Every partition through the HNSW graph: the approximate path must keep the same contract.
const graphAlways: EmbeddedIndexOptions = { graphMinSize: 1, graphBuild: "inline" };
describeVectorIndex("embedded (HNSW graph)", () => sqliteHarness((db) => new EmbeddedIndex(db, graphAlways)));

describeVectorIndex("qdrant (fake server)", async () => {
  const fake = await startFakeQdrant();
  return (await qdrantHarness(fake.url, undefined, () => fake.close())).harness;
});

const realUrl = process.env.QDRANT_URL;
describe.skipIf(!realUrl)("real Qdrant at QDRANT_URL", () => {
  describeVectorIndex("qdrant (real server)", async () => {
    const apiKey = process.env.QDRANT_API_KEY;
    let collection = "";
    const { harness, collection: name } = await qdrantHarness(realUrl!, apiKey, async () => {
      const client = new QdrantClient({ url: realUrl!, ...(apiKey ? { apiKey } : {}), checkCompatibility: false });
      if ((await client.collectionExists(collection)).exists) await client.deleteCollection(collection);
    });
    collection = name;
    return harness;
  });
});

describe("the embedded index in the SQLite file: specifics", () => {
  it("decodes the removed sqlite-vec backend's rowids (rowId * 16 + store slot) for the take-over", () => {
    const seen = new Set<string>();
    ["notes", "important", "thoughts", "diary"].forEach((store, slot) => {
      for (const rowId of [0, 1, 2, 15, 16, 123456, Number.MAX_SAFE_INTEGER]) {
        const id = BigInt(rowId) * 16n + BigInt(slot);
        expect(seen.has(String(id))).toBe(false);
        seen.add(String(id));
        expect(fromVecRowid(id)).toEqual({ store, rowId });
      }
    });
    expect(() => fromVecRowid(16n + 9n)).toThrow(VectorIndexError);
  });

  it("filters by user and store: another user's near-identical rows do not push a user's only row out", async () => {
    const h = await sqliteHarness();
    try {
      await h.index.init(4, "emb");
      // 50 near-identical rows of another user must not push u1's only row out of a k=1 query.
      await h.index.upsert([
        ...Array.from({ length: 50 }, (_, i) => ({ store: "notes" as const, rowId: i + 1, userId: "u2", vector: vec(1, 0, 0, 0) })),
        { store: "notes", rowId: 100, userId: "u1", vector: vec(0, 1, 0, 0) },
        { store: "thoughts", rowId: 101, userId: "u1", vector: vec(1, 0, 0, 0) },
      ]);
      const hits = await h.index.search({ vector: vec(1, 0, 0, 0), store: "notes", userId: "u1", k: 1 });
      expect(hits.map((x) => x.rowId)).toEqual([100]);
    } finally {
      await h.cleanup();
    }
  });

  it("refuses a vector table without its model record", async () => {
    const h = await sqliteHarness();
    try {
      await h.index.init(4, "emb");
      await h.index.upsert([{ store: "notes", rowId: 1, userId: "u1", vector: vec(1, 0, 0, 0) }]);
      await h.index.close();
      h.sql().exec("DELETE FROM memory_vector_meta");
      const again = await h.reopen();
      await expect(again.init(4, "emb")).rejects.toBeInstanceOf(VectorIndexError);
      await again.reset(4, "emb");
      await again.init(4, "emb");
    } finally {
      await h.cleanup();
    }
  });
});

describe("QdrantIndex against the fake: what goes over the wire", () => {
  let fake: FakeQdrant;
  beforeEach(async () => {
    fake = await startFakeQdrant();
  });
  afterEach(async () => {
    await fake.close();
  });

  it("speaks Qdrant's REST API: a cosine collection, payloads per point, filtered queries", async () => {
    const index = new QdrantIndex({ url: fake.url, collection: "mem" });
    expect(fake.requests).toHaveLength(0); // no I/O in the constructor
    await index.init(3, "emb-x");

    expect(fake.requests.some((r) => r.method === "GET" && r.path === "/")).toBe(true); // compatibility check
    const create = fake.requestsFor("mem").find((r) => r.method === "PUT")!;
    expect(create.body).toMatchObject({ vectors: { size: 3, distance: "Cosine" }, metadata: { lilo: { embedderId: "emb-x", dimension: 3 } } });
    const indexes = fake.requestsFor("mem", "/index").map((r) => r.body as { field_name: string });
    expect(indexes.map((b) => b.field_name).sort()).toEqual(["store", "userId"]);

    await index.upsert([{ store: "diary", rowId: 7, userId: "anna", vector: vec(1, 2, 3) }]);
    const up = fake.requestsFor("mem", "/points").find((r) => r.method === "PUT")!;
    expect(up.query.get("wait")).toBe("true");
    expect(up.body).toEqual({
      points: [{ id: qdrantPointId("diary", 7), vector: [1, 2, 3], payload: { store: "diary", rowId: 7, userId: "anna", embedderId: "emb-x" } }],
    });
    expect(qdrantPointId("diary", 7)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(qdrantPointId("diary", 7)).not.toBe(qdrantPointId("notes", 7));

    const hits = await index.search({ vector: vec(1, 2, 3), store: "diary", userId: "anna", k: 4, minScore: 0.25 });
    expect(hits).toEqual([{ store: "diary", rowId: 7, userId: "anna", score: expect.closeTo(1, 5) }]);
    const query = fake.requestsFor("mem", "/points/query").at(-1)!;
    expect(query.body).toMatchObject({
      query: [1, 2, 3],
      filter: {
        must: [
          { key: "store", match: { value: "diary" } },
          { key: "userId", match: { value: "anna" } },
        ],
      },
      limit: 4,
      score_threshold: 0.25,
      with_payload: true,
    });

    await index.delete([{ store: "diary", rowId: 7, userId: "anna" }]);
    const del = fake.requestsFor("mem", "/points/delete").at(-1)!;
    expect(del.query.get("wait")).toBe("true");
    expect(del.body).toEqual({ points: [qdrantPointId("diary", 7)] });
    expect(fake.collections.get("mem")!.points.size).toBe(0);
    await index.close();
  });

  it("refuses a collection made for another embedder or without Lilo metadata", async () => {
    const a = new QdrantIndex({ url: fake.url, collection: "mem" });
    await a.init(3, "emb-x");
    fake.collections.get("mem")!.metadata = null;
    const b = new QdrantIndex({ url: fake.url, collection: "mem" });
    await expect(b.init(3, "emb-x")).rejects.toThrow(/no embedder id.*lilo reindex/s);
  });

  it("wraps transport and server errors in VectorIndexError with the cause", async () => {
    const down = new QdrantIndex({ url: "http://127.0.0.1:1", collection: "x", checkCompatibility: false, timeoutMs: 2000 });
    const err = await down.init(3, "e").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VectorIndexError);
    expect((err as VectorIndexError).cause).toBeDefined();

    const index = new QdrantIndex({ url: fake.url, collection: "mem" });
    await index.init(3, "emb-x");
    fake.collections.delete("mem"); // someone dropped it behind our back
    const err2 = await index.upsert([{ store: "notes", rowId: 1, userId: "u", vector: vec(1, 0, 0) }]).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(VectorIndexError);
    expect((err2 as Error).message).toMatch(/404.*doesn't exist/);
  });
});
