import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLilo, loadConfig, type Lilo } from "../../../core/index.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { ChatLog } from "../../../core/foundation/store/chat-log.ts";
import { importMessages } from "../../../core/foundation/store/chat-import.ts";
import { MessageVectors } from "../../../core/memory/recall/message-vectors.ts";
import { EmbeddedIndex, type EmbeddedIndexOptions } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import { HashEmbedder } from "../../../core/foundation/providers/hash-embedder.ts";

const THINGS = ["Kino", "Garten", "Oma", "Pizza", "Urlaub", "Hund", "Geige", "Zug"];
const text = (i: number) => `Eintrag ${i}: ${THINGS[i % 8]} ${THINGS[(i * 3) % 7]} ${i % 11} ${i % 13} wort${i}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i * 7)).toISOString();
const all = () => true;

describe("a long chat log's meaning side through the message graph (LILO_MESSAGE_GRAPH_MIN_SIZE)", () => {
  const embedder = new HashEmbedder(64);
  const dirs: string[] = [];
  const dbs: Db[] = [];
  const indexes: EmbeddedIndex[] = [];
  afterAll(async () => {
    for (const i of indexes) await i.close();
    for (const db of dbs) if (db.open) db.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** One user's log of `n` messages in a fresh database. */
  function log(n: number): { db: Db; dir: string; ids: number[] } {
    const dir = mkdtempSync(join(tmpdir(), "lilo-mgraph-"));
    dirs.push(dir);
    const db = openDatabase(join(dir, "lilo.db"));
    dbs.push(db);
    const msgs = Array.from({ length: n }, (_, i) => ({ userId: "chris", role: "user" as const, text: text(i), createdAt: at(i) }));
    return { db, dir, ids: importMessages(db, new ChatLog(db), msgs, 60) };
  }
  function vectors(db: Db, opts: EmbeddedIndexOptions): { v: MessageVectors; index: EmbeddedIndex } {
    const index = new EmbeddedIndex(db, { snapshotPath: null, graphBuild: "inline", ...opts });
    indexes.push(index);
    let ready: Promise<void> | undefined;
    const v = new MessageVectors(db, embedder, index, async () => {
      ready ??= embedder.dimension().then((d) => index.init(d, embedder.id));
      await ready;
    });
    return { v, index };
  }
  const q = async (s: string) => (await embedder.embed([s]))[0]!;

  it("switches a partition from the exact scan to the graph when it reaches the threshold (searches counted)", async () => {
    const { db, ids } = log(300);
    const graph = vectors(db, { messageGraphMinSize: 301 });
    const exact = vectors(db, { messageGraphMinSize: Number.POSITIVE_INFINITY });
    await graph.v.catchUpAll("chris");
    await exact.v.catchUpAll("chris");
    const queries = await Promise.all(["Garten Oma 7", "Kino Hund", "Pizza 3 12", text(42), "Zug Geige Urlaub"].map(q));
    // Below: the same code path as an exact index, hit for hit, score for score.
    for (const vector of queries) expect(await graph.v.search("chris", vector, 50, all)).toEqual(await exact.v.search("chris", vector, 50, all));
    expect(graph.index.copyState()).toMatchObject({ graphs: 0, graphSearches: 0 });

    // One more message reaches the threshold: the partition gets its graph and every search goes through it.
    const more = importMessages(db, new ChatLog(db), [{ userId: "chris", role: "user", text: text(300), createdAt: at(300) }], 60);
    await graph.v.catchUp("chris");
    await exact.v.catchUp("chris");
    expect(graph.index.copyState().graphs).toBe(1);
    let agree = 0;
    for (const vector of queries) {
      const [g, e] = [await graph.v.search("chris", vector, 10, all), await exact.v.search("chris", vector, 10, all)];
      // Through the graph the candidates are rescored in RAM (residuals): cosines within 1e-4 of the floats'.
      const kth = e.at(-1)!.score - 1e-4;
      agree += g.filter((h) => h.score >= kth).length / e.length;
      expect(g[0]!.score).toBeCloseTo(e[0]!.score, 4);
    }
    expect(agree / queries.length).toBeGreaterThanOrEqual(0.9);
    expect(graph.index.copyState().graphSearches).toBeGreaterThanOrEqual(queries.length);
    // Each message's own words find it first.
    for (const id of [ids[0]!, ids[150]!, more[0]!]) {
      const own = (db.prepare("SELECT text FROM messages WHERE id = ?").pluck().get(id) as string) ?? "";
      expect((await graph.v.search("chris", await q(own), 1, all))[0]?.id).toBe(id);
    }
  });

  it("never brings back a forgotten, redacted or deleted message, also after a restart that loads the graph", async () => {
    const { db, dir, ids } = log(260);
    const opts = { messageGraphMinSize: 200, snapshotPath: join(dir, "lilo.db.vectors") };
    const a = vectors(db, opts);
    await a.v.catchUpAll("chris");
    expect(a.index.copyState().graphs).toBe(1);
    const [forgotten, redacted, deleted] = [ids[10]!, ids[120]!, ids[250]!];
    const own = (id: number) => q(db.prepare("SELECT text FROM messages WHERE id = ?").pluck().get(id) as string);
    const vectorsOf = [await own(forgotten), await own(redacted), await own(deleted)];
    for (const [i, id] of [forgotten, redacted, deleted].entries()) expect((await a.v.search("chris", vectorsOf[i]!, 1, all))[0]?.id).toBe(id);

    await a.v.removeMany("chris", [forgotten]); // what forgetting a message does (forget-everywhere.ts)
    db.prepare("UPDATE messages SET redacted_at = ? WHERE id = ?").run("2026-03-01T00:00:00.000Z", redacted); // vector still there
    db.prepare("DELETE FROM messages WHERE id = ?").run(deleted);
    const found = async (v: MessageVectors) => {
      const hits = await Promise.all(vectorsOf.map((vector) => v.search("chris", vector, 40, all)));
      return hits.flat().map((h) => h.id);
    };
    const gone = [forgotten, redacted, deleted];
    expect((await found(a.v)).filter((id) => gone.includes(id))).toEqual([]);
    const keys = (await a.index.keys()).map((k) => k.rowId);
    expect(keys).not.toContain(forgotten);
    expect(keys).not.toContain(deleted); // a search that met it dropped its vector
    await a.index.close(); // saved with its graph

    const b = vectors(db, opts);
    await b.v.search("chris", vectorsOf[0]!, 1, all); // opens the index: snapshot and graph
    expect(b.index.copyState()).toMatchObject({ graphs: 1, loadedFrom: "snapshot", rebuildNeeded: undefined });
    expect((await found(b.v)).filter((id) => gone.includes(id))).toEqual([]);
    expect(b.index.copyState().graphSearches).toBeGreaterThan(0);
  });

  it("is wired from the configuration: a turn's recall searches the user's message graph", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-mgraph-"));
    dirs.push(dir);
    let lilo: Lilo | undefined;
    try {
      lilo = createLilo(loadConfig({ LILO_DATA_DIR: dir, LILO_MESSAGE_GRAPH_MIN_SIZE: "100" }), { embedder });
      lilo.recall.importChat(Array.from({ length: 120 }, (_, i) => ({ userId: "chris", role: "user" as const, text: text(i), createdAt: at(i) })));
      await lilo.recall.indexMessages("chris");
      // The graph is built in the background, a chunk per turn of the event loop.
      for (let i = 0; i < 100 && !(await lilo.maintenance.indexState())?.graphs; i++) await new Promise((r) => setImmediate(r));
      expect((await lilo.maintenance.indexState())?.graphs).toBe(1);
      const hits = await lilo.recall.rank("Garten Oma", { userId: "chris", limit: 5 });
      expect(hits.length).toBeGreaterThan(0);
      expect((await lilo.maintenance.indexState())?.graphSearches).toBeGreaterThan(0);
    } finally {
      await lilo?.close();
    }
  });
});
