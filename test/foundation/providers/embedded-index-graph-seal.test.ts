import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddedIndex, type EmbeddedIndexOptions } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import { Partition, quantize } from "../../../core/foundation/providers/embedded-index/partition.ts";
import { SealedGraphFiles } from "../../../core/foundation/providers/embedded-index/graph-files.ts";
import { snapshotKeyOf } from "../../../core/foundation/providers/embedded-index/seal.ts";
import type { IndexStore, VectorRecord } from "../../../core/foundation/ports/vector-index.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { dataKeyOf, type DataKey } from "../../../core/foundation/store/data-key.ts";
import { convertInstall } from "../../../core/internal.ts";
import { systemClock } from "../../../core/index.ts";
import { plainFindings } from "../../helpers/folder-bytes.ts";

const EMB = "emb-test";
const DIM = 16;
const KEY_TEXT = "5a".repeat(32);
const KEY = dataKeyOf(KEY_TEXT);
/** A user id that a graph file would carry in plain only if usearch's bytes were left unsealed (it holds row ids, not names). */
const USER = "user-Wattenmeer-4417";
const ROWS = 300;

function vecOf(id: number): Float32Array {
  return Float32Array.from({ length: DIM }, (_, i) => (Math.sin(id * 12.9898 + i * 78.233) * 43758.5453) % 1);
}
const rec = (rowId: number, userId = USER): VectorRecord<IndexStore> => ({ store: "notes", rowId, userId, vector: vecOf(rowId) });
const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * Beside an encrypted database the HNSW graphs are saved sealed, through a
 * private file in a RAM folder (tmpfs): a restart loads them instead of
 * building them again, their files hold no usearch bytes in plain, a file
 * that does not open is not used (the graph is built again, with a warning),
 * and without a RAM folder no graph file is written at all.
 */
describe("EmbeddedIndex graphs sealed beside an encrypted database", () => {
  let dir: string;
  let file: string;
  /** The RAM folder the graphs go through: a folder of this test inside /dev/shm (a tmpfs on Linux). */
  let ram: string;
  const dbs: Db[] = [];
  /** `key` null: an unencrypted install. */
  const open = (opts: EmbeddedIndexOptions, key: DataKey | null = KEY) => {
    const db = openDatabase(file, key ?? undefined);
    dbs.push(db);
    const warnings: string[] = [];
    const debug: string[] = [];
    const index = new EmbeddedIndex(db, { graphScratchDir: ram, graphMinSize: 100, warn: (m) => warnings.push(m), debug: (m) => debug.push(m), ...opts });
    return { sql: db, index, warnings, debug };
  };
  /** ROWS notes for each user (a graph each), closed (graphs are saved on close). */
  const fill = async (opts: EmbeddedIndexOptions = { dataKey: KEY }, key: DataKey | null = KEY, users = [USER]) => {
    const a = open({ graphBuild: "inline", ...opts }, key);
    await a.index.init(DIM, EMB);
    for (const [u, user] of users.entries()) await a.index.upsert(Array.from({ length: ROWS }, (_, i) => rec(u * 1000 + i + 1, user)));
    expect(a.index.copyState().graphs).toBe(users.length);
    await a.index.close();
    a.sql.close();
    return a;
  };
  /** Opens the index again (graphs loaded and built in the background, after the start); checks a search. */
  const reopened = async (opts: EmbeddedIndexOptions = { dataKey: KEY }, key: DataKey | null = KEY) => {
    const b = open({ graphBuild: "background", ...opts }, key);
    await b.index.init(DIM, EMB);
    const before = b.index.copyState();
    await b.index.graphsBuilt();
    expect((await b.index.search({ vector: vecOf(150), store: "notes", userId: USER, k: 1 }))[0]?.rowId).toBe(150);
    const after = b.index.copyState();
    await b.index.close();
    return { before, after, warnings: b.warnings, debug: b.debug };
  };
  const graphFiles = () => readdirSync(dir).filter((f) => /\.vectors\.[0-9a-f-]{36}\.graph\d+$/.test(f));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-graph-seal-"));
    file = join(dir, "lilo.db");
    ram = mkdtempSync("/dev/shm/lilo-graph-test-");
  });
  afterEach(() => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(ram, { recursive: true, force: true });
  });

  it("saves the graph sealed and loads it on a restart without building it again, leaving nothing in the RAM folder", async () => {
    const a = await fill();
    expect(a.warnings).toEqual([]);
    expect(a.debug).toEqual([]);
    const graphs = graphFiles();
    expect(graphs).toHaveLength(1);
    const sealed = join(dir, graphs[0]!);
    expect(readFileSync(sealed).subarray(0, 8).toString()).toBe("LILOGSX1");
    expect(statSync(sealed).mode & 0o077).toBe(0);
    expect(readdirSync(ram)).toEqual([]);

    const { before, after, warnings } = await reopened();
    expect(warnings).toEqual([]);
    expect(before).toMatchObject({ loadedFrom: "snapshot", graphs: 0, graphsWaiting: 1, graphBuilds: 0 });
    expect(after).toMatchObject({ graphs: 1, graphsWaiting: 0, graphBuilds: 0 });
    expect(after.graphSearches).toBeGreaterThan(0);
    expect(readdirSync(ram)).toEqual([]);
  });

  it("keeps no usearch bytes in plain in the sealed graph file, where an unencrypted install's graph has them", async () => {
    await fill({}, null); // an unencrypted install: usearch's own file
    const plain = readFileSync(join(dir, graphFiles()[0]!));
    // Rows added one at a time once the graph exists (past graphMinSize): usearch keeps their int8 bytes as given.
    const known = [101, 150, 300].map((id) => bytesOf(quantize(vecOf(id))));
    for (const run of known) expect(plain.includes(run)).toBe(true); // the byte check can see them
    const usearchHead = plain.subarray(0, 32);
    for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true });

    await fill();
    const sealed = readFileSync(join(dir, graphFiles()[0]!));
    for (const run of [...known, usearchHead]) expect(sealed.includes(run)).toBe(false);
    expect(plainFindings(dir, USER)).toEqual([]);
  });

  it("builds the graph again with a warning when a byte of its sealed file was changed", async () => {
    await fill();
    const sealed = join(dir, graphFiles()[0]!);
    const bytes = readFileSync(sealed);
    const at = bytes.length - 100;
    bytes[at] = bytes[at]! ^ 1;
    writeFileSync(sealed, bytes);
    const { before, after, warnings } = await reopened();
    expect(warnings).toEqual([expect.stringMatching(/vector graph .*\.graph0 was not used \(.*does not open with the data key.*\); the graph is built again/)]);
    expect(before).toMatchObject({ loadedFrom: "snapshot", graphs: 0, graphsWaiting: 1, graphBuilds: 0 });
    expect(after).toMatchObject({ graphs: 1, graphsWaiting: 0, graphBuilds: 1 });
  });

  it("does not load a sealed graph that was moved to another partition's name", async () => {
    await fill({ dataKey: KEY }, KEY, [USER, "user-2"]);
    const [g0, g1] = graphFiles().sort();
    renameSync(join(dir, g0!), join(dir, "swap"));
    renameSync(join(dir, g1!), join(dir, g0!));
    renameSync(join(dir, "swap"), join(dir, g1!));
    const { before, after, warnings } = await reopened();
    expect(warnings).toHaveLength(2);
    expect(before).toMatchObject({ loadedFrom: "snapshot", graphsWaiting: 2 });
    expect(after).toMatchObject({ graphs: 2, graphBuilds: 2 });
  });

  it("writes no graph file, with one debug line, when there is no RAM folder to seal it through", async () => {
    const none = { dataKey: KEY, graphScratchDir: join(dir, "no-such-folder") };
    const a = await fill(none);
    expect(a.debug).toEqual([expect.stringMatching(/graphs are not saved beside the encrypted database .*no-such-folder is not a folder/)]);
    expect(existsSync(`${file}.vectors`)).toBe(true);
    expect(graphFiles()).toEqual([]);
    const { before, after, warnings } = await reopened(none);
    expect(warnings).toEqual([]);
    expect(before).toMatchObject({ loadedFrom: "snapshot", graphs: 0, graphBuilds: 1 });
    expect(after.graphs).toBe(1);
  });

  it("clears at start the RAM folder's scratch folders of processes no longer running, and only those", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid; // exited: its id names no running process
    for (const pid of [dead, process.pid]) {
      mkdirSync(join(ram, `lilo-graph-${pid}-abc123`));
      writeFileSync(join(ram, `lilo-graph-${pid}-abc123`, "graph"), "a graph in plain");
    }
    open({ dataKey: KEY });
    expect(readdirSync(ram)).toEqual([`lilo-graph-${process.pid}-abc123`]);
  });

  it("leaves no plain graph after `lilo encrypt --apply`, and no graph sealed with the old key after `lilo rekey --apply`", async () => {
    const config = (key: string) => ({ dbPath: file, dataDir: dir, dataKey: key, analysis: { dir: join(dir, "analyses") } });
    await fill({}, null);
    expect(graphFiles()).toHaveLength(1);
    convertInstall(config(KEY_TEXT), { kind: "encrypt" }, { apply: true, clock: systemClock });
    expect(readdirSync(dir).filter((f) => f.includes(".vectors"))).toEqual([]);

    const first = await reopened(); // rebuilt from the database, graph included, and saved sealed on close
    expect(first.before).toMatchObject({ loadedFrom: "sqlite", graphBuilds: 1 });
    expect(readFileSync(join(dir, graphFiles()[0]!)).subarray(0, 8).toString()).toBe("LILOGSX1");
    expect(plainFindings(dir, USER)).toEqual([]);

    const next = "6b".repeat(32);
    convertInstall(config(KEY_TEXT), { kind: "rekey", newKey: next }, { apply: true, clock: systemClock });
    expect(readdirSync(dir).filter((f) => f.includes(".vectors"))).toEqual([]);
    const second = await reopened({ dataKey: dataKeyOf(next) }, dataKeyOf(next));
    expect(second.warnings).toEqual([]);
    expect(second.before).toMatchObject({ loadedFrom: "sqlite", graphBuilds: 1 });
  });
});

/** A graph of hundreds of MB is sealed in records: each opens on its own, and none may be dropped, even the last. */
describe("SealedGraphFiles", () => {
  let dir: string;
  let ram: string;
  const key = snapshotKeyOf(KEY);
  const place = { baseId: "b", index: 0, userId: USER, store: "notes" };
  const partition = () => {
    const p = new Partition(USER, "notes", DIM);
    for (let i = 1; i <= 50; i++) p.put(i, vecOf(i));
    return p;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-graph-files-"));
    ram = mkdtempSync("/dev/shm/lilo-graph-test-");
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(ram, { recursive: true, force: true });
  });

  it("seals a graph in many records and loads it back; a file cut off after a whole record is not used", () => {
    const warnings: string[] = [];
    const files = new SealedGraphFiles(key, ram, (m) => warnings.push(m), 256);
    const p = partition();
    p.startGraph();
    p.buildStep(Number.POSITIVE_INFINITY);
    const sealed = join(dir, "g");
    files.save(p, sealed, place);
    const bytes = readFileSync(sealed);
    expect(bytes.length).toBeGreaterThan(4 * (256 + 28)); // several records

    const q = partition();
    expect(files.load(q, sealed, place)).toBe(true);
    expect(q.hasGraph).toBe(true);
    expect(q.candidates(quantize(vecOf(7)), 1)).toEqual([7]);
    expect(warnings).toEqual([]);

    // Without its last record (each is 4 + 256 + 28 bytes but the last): every record left opens, and still the file is refused.
    writeFileSync(sealed, bytes.subarray(0, 8 + 16 + 4 * (4 + 256 + 28)));
    expect(files.load(partition(), sealed, place)).toBe(false);
    expect(warnings).toEqual([expect.stringContaining("does not open with the data key")]);
    expect(readdirSync(ram)).toEqual([]);
  });
});
