import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddedIndex, type EmbeddedIndexOptions } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import { quantize } from "../../../core/foundation/providers/embedded-index/partition.ts";
import type { IndexStore, VectorKey, VectorRecord } from "../../../core/foundation/ports/vector-index.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { dataKeyOf } from "../../../core/foundation/store/data-key.ts";
import { plainFindings } from "../../helpers/folder-bytes.ts";

const EMB = "emb-test";
const DIM = 16;
const KEY = dataKeyOf("3c".repeat(32));
/** A user id that only the snapshot's header (partition names) and the log's batch heads would carry in plain. */
const USER = "user-Kirschbluetenfest-7731";

function vecOf(id: number): Float32Array {
  return Float32Array.from({ length: DIM }, (_, i) => (Math.sin(id * 12.9898 + i * 78.233) * 43758.5453) % 1);
}
const rec = (rowId: number): VectorRecord<IndexStore> => ({ store: "notes", rowId, userId: USER, vector: vecOf(rowId) });
const sorted = (keys: VectorKey<IndexStore>[]) => keys.map((k) => `${k.store}/${k.userId}/${k.rowId}`).sort();
const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/**
 * Beside an encrypted database the vector snapshot and its log are sealed
 * with a key derived from the data key: a restart loads the index from them,
 * their bytes hold no vector and no name in plain, and a file that does not
 * open with the key is never used — the index is rebuilt from SQLite.
 */
describe("EmbeddedIndex snapshot sealed beside an encrypted database", () => {
  let dir: string;
  let file: string;
  const dbs: Db[] = [];
  const open = (opts: EmbeddedIndexOptions, plain = false) => {
    const db = openDatabase(file, plain ? undefined : KEY);
    dbs.push(db);
    return { sql: db, index: new EmbeddedIndex(db, opts) };
  };
  /** Writes 300 rows (a snapshot), then 20 more and a removal (the log), and closes. */
  const fill = async (opts: EmbeddedIndexOptions = { dataKey: KEY }, plain = false) => {
    const a = open(opts, plain);
    await a.index.init(DIM, EMB);
    await a.index.upsert(Array.from({ length: 300 }, (_, i) => rec(i + 1)));
    a.index.save();
    await a.index.saved();
    await a.index.upsert(Array.from({ length: 20 }, (_, i) => rec(1000 + i)));
    await a.index.delete([{ store: "notes", rowId: 7, userId: USER }]);
    a.index.save();
    await a.index.saved();
    await a.index.close();
    a.sql.close();
  };
  /** Opens the index again and checks it against SQLite; returns where it came from and the warnings. */
  const reopened = async (opts: EmbeddedIndexOptions = { dataKey: KEY }) => {
    const warnings: string[] = [];
    const b = open({ ...opts, warn: (m) => warnings.push(m) });
    await b.index.init(DIM, EMB);
    const inSqlite = b.sql.prepare("SELECT store, row_id AS rowId, user_id AS userId FROM memory_vectors").all() as VectorKey<IndexStore>[];
    expect(sorted(await b.index.keys())).toEqual(sorted(inSqlite));
    for (const id of [1, 150, 1019]) expect((await b.index.search({ vector: vecOf(id), store: "notes", userId: USER, k: 1 }))[0]?.rowId).toBe(id);
    const from = b.index.copyState().loadedFrom;
    await b.index.close();
    return { from, warnings };
  };
  const snapshotFiles = () => [readFileSync(`${file}.vectors`), readFileSync(`${file}.vectors.log`)];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-seal-"));
    file = join(dir, "lilo.db");
  });
  afterEach(() => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads a sealed snapshot and its log back into the same index on a restart", async () => {
    await fill();
    expect(snapshotFiles()[1]!.length).toBeGreaterThan(20 * DIM); // the 20 later rows went to the log
    const { from, warnings } = await reopened();
    expect(from).toBe("snapshot");
    expect(warnings).toEqual([]);
  });

  it("keeps no plain int8 or float run of a known vector, and no user id, in the sealed files", async () => {
    await fill();
    const known = [1, 150, 1005].flatMap((id) => [bytesOf(quantize(vecOf(id))), bytesOf(vecOf(id))]);
    for (const bytes of snapshotFiles()) for (const run of known) expect(bytes.includes(run)).toBe(false);
    expect(plainFindings(dir, USER)).toEqual([]);
  });

  it("finds those runs in an unencrypted install's files (the byte check can see them)", async () => {
    await fill({}, true);
    const both = Buffer.concat(snapshotFiles()); // where a row lands (snapshot or log) depends on when the background write ran
    for (const id of [1, 150, 1005]) expect(both.includes(bytesOf(quantize(vecOf(id))))).toBe(true);
    expect(plainFindings(dir, USER).length).toBeGreaterThan(0);
  });

  it("rebuilds from SQLite with a warning when the snapshot is sealed with another key", async () => {
    await fill();
    const { from, warnings } = await reopened({ dataKey: dataKeyOf("4d".repeat(32)) });
    expect(from).toBe("sqlite");
    expect(warnings).toEqual([expect.stringMatching(/lilo\.db\.vectors does not open with the data key.*rebuilt from the database/)]);
  });

  it("rebuilds from SQLite with a warning when a byte of the sealed snapshot was changed", async () => {
    await fill();
    const bytes = readFileSync(`${file}.vectors`);
    const at = bytes.length - 40;
    bytes[at] = bytes[at]! ^ 1;
    writeFileSync(`${file}.vectors`, bytes);
    const { from, warnings } = await reopened();
    expect(from).toBe("sqlite");
    expect(warnings).toHaveLength(1);
  });

  it("rebuilds from SQLite with a warning when the sealed snapshot was cut off", async () => {
    await fill();
    const bytes = readFileSync(`${file}.vectors`);
    writeFileSync(`${file}.vectors`, bytes.subarray(0, bytes.length - 10));
    const { from, warnings } = await reopened();
    expect(from).toBe("sqlite");
    expect(warnings).toEqual([expect.stringMatching(/lilo\.db\.vectors is truncated/)]);
  });

  it("replaces a plain snapshot left beside an encrypted database with a sealed one", async () => {
    await fill({}, true); // as an unencrypted install wrote it
    const plain = snapshotFiles()[0]!;
    rmSync(file);
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    await fill({ snapshotPath: null }); // the encrypted database, no snapshot of its own
    writeFileSync(`${file}.vectors`, plain);
    const first = await reopened();
    expect(first.from).toBe("sqlite");
    expect(first.warnings).toEqual([expect.stringContaining("is not sealed")]);
    expect(readFileSync(`${file}.vectors`).subarray(0, 8).toString()).toBe("LILOVSX1");
    expect(await reopened()).toEqual({ from: "snapshot", warnings: [] });
  });

  it("keeps no snapshot beside an encrypted database when the index is not given the key", async () => {
    await fill({}); // encrypted database, index without the key
    expect(existsSync(`${file}.vectors`)).toBe(false);
  });
});
