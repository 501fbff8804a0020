import { beforeEach, describe, expect, it } from "vitest";
import { EmbeddedIndex, type EmbeddedIndexOptions } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import type { VectorRecord } from "../../../core/foundation/ports/vector-index.ts";
import { indexFiles } from "../../helpers/index-files.ts";

const EMB = "emb-test";
const DIM = 16;
const ROWS = 300;

function vecOf(id: number): Float32Array {
  return Float32Array.from({ length: DIM }, (_, i) => (Math.sin(id * 12.9898 + i * 78.233) * 43758.5453) % 1);
}
const note = (rowId: number): VectorRecord => ({ store: "notes", rowId, userId: "u1", vector: vecOf(rowId) });

/**
 * A graph saved with the snapshot is loaded after the start, not during it:
 * the index answers at once (by exact scan), the graph follows a turn of the
 * event loop later, a change made before then loads it first, and a close
 * before then leaves its file for the next start.
 */
describe("EmbeddedIndex: saved graphs loaded after the start", () => {
  const files = indexFiles("lilo-graph-load-");
  const open = (opts: EmbeddedIndexOptions = {}) => new EmbeddedIndex(files.db(), { graphMinSize: 100, ...opts });
  const top = async (index: EmbeddedIndex, id: number) => (await index.search({ vector: vecOf(id), store: "notes", userId: "u1", k: 1 }))[0]?.rowId;

  beforeEach(async () => {
    const a = open({ graphBuild: "inline" });
    await a.init(DIM, EMB);
    await a.upsert(Array.from({ length: ROWS }, (_, i) => note(i + 1)));
    expect(a.copyState().graphs).toBe(1);
    await a.close(); // the graph is saved with the snapshot
  });

  it("answers right after the start by exact scan, then through the saved graph, never building it", async () => {
    const b = open();
    await b.init(DIM, EMB);
    expect(b.copyState()).toMatchObject({ loadedFrom: "snapshot", graphs: 0, graphsWaiting: 1 });
    expect(await top(b, 150)).toBe(150);
    expect(b.copyState().graphSearches).toBe(0);
    await b.graphsBuilt();
    expect(await top(b, 150)).toBe(150);
    expect(b.copyState()).toMatchObject({ graphs: 1, graphsWaiting: 0, graphBuilds: 0 });
    expect(b.copyState().graphSearches).toBe(1);
    await b.close();
  });

  it("loads the waiting graph before a change right after the start, so the graph holds the change", async () => {
    const b = open();
    await b.init(DIM, EMB);
    await b.upsert([note(5000)]);
    await b.delete([{ store: "notes", rowId: 7, userId: "u1" }]);
    expect(b.copyState()).toMatchObject({ graphs: 1, graphsWaiting: 0, graphBuilds: 0, entries: ROWS });
    expect(await top(b, 5000)).toBe(5000);
    expect(await top(b, 7)).not.toBe(7);
    expect(b.copyState().graphSearches).toBe(2);
    await b.close();
  });

  it("holds the saved graph back while the start holds the upkeep, and loads it once told the start is over", async () => {
    const b = open({ holdUpkeep: true });
    await b.init(DIM, EMB);
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(b.copyState()).toMatchObject({ graphs: 0, graphsWaiting: 1 });
    expect(await top(b, 150)).toBe(150);
    b.startUpkeep();
    await b.graphsBuilt();
    expect(b.copyState()).toMatchObject({ graphs: 1, graphsWaiting: 0, graphBuilds: 0 });
    await b.close();
  });

  it("leaves the saved graph for the next start when closed before it was loaded", async () => {
    const b = open();
    await b.init(DIM, EMB);
    await b.close();
    const c = open();
    await c.init(DIM, EMB);
    expect(c.copyState()).toMatchObject({ graphsWaiting: 1 });
    await c.graphsBuilt();
    expect(c.copyState()).toMatchObject({ graphs: 1, graphBuilds: 0 });
    await c.close();
  });
});
