/**
 * The Matrix crypto's IndexedDB kept in Lilo's database (idb-table.ts): a
 * save writes only the records that changed since the last one, and a
 * restore recreates the database exactly. Real fake-indexeddb, real SQLite.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../core/foundation/store/db.ts";
import { DeviceKeysStore, type KeyRecordChange } from "../../core/foundation/store/device-keys.ts";
import { deviceKeysApi, type DeviceKeysApi } from "../../core/api/device-keys-api.ts";
import { IdbTable } from "../../adapters/matrix/crypto/idb-table.ts";
import { completed, createDatabase, dropDatabase, idb, request, type Key } from "../../adapters/matrix/crypto/idb.ts";
import { MatrixCryptoError } from "../../adapters/matrix/crypto/crypto-error.ts";

const NAME = "lilo-matrix-crypto-TEST::matrix-sdk-crypto";
const STORE = "matrix/TEST";

describe("Matrix crypto store in the database", () => {
  let db: Db;
  let keys: DeviceKeysApi;
  let saves: KeyRecordChange[][];

  beforeEach(async () => {
    db = openDatabase(":memory:");
    const api = deviceKeysApi(new DeviceKeysStore(db), { now: () => new Date("2026-01-01T00:00:00Z") });
    saves = [];
    keys = { ...api, save: (name, layout, changes) => (saves.push(changes), api.save(name, layout, changes)) };
    await createDatabase(NAME, 3, [
      { name: "sessions", keyPath: "id", autoIncrement: false, indexes: [{ name: "by_room", keyPath: "room", unique: false, multiEntry: false }], records: [] },
      { name: "core", keyPath: null, autoIncrement: false, indexes: [], records: [] },
    ]);
    await write((tx) => {
      for (let i = 0; i < 20; i++) tx.objectStore("sessions").put({ id: `s${i}`, room: "!r", pickle: new Uint8Array([i]) });
      tx.objectStore("core").put({ account: "pickled" }, "account");
    });
  });

  afterEach(async () => {
    await dropDatabase(NAME);
    db.close();
  });

  /** Runs `fn` in a writing IndexedDB transaction over both object stores, as the crypto does. */
  async function write(fn: (tx: ReturnType<Awaited<ReturnType<typeof open>>["transaction"]>) => void): Promise<void> {
    const database = await open();
    const tx = database.transaction(["sessions", "core"], "readwrite");
    fn(tx);
    await completed(tx);
    database.close();
  }
  const open = () => request(idb().open(NAME));

  async function all(store: string): Promise<{ keys: Key[]; values: unknown[] }> {
    const database = await open();
    const s = database.transaction([store], "readonly").objectStore(store);
    const [k, v] = await Promise.all([request(s.getAllKeys()), request(s.getAll())]);
    database.close();
    return { keys: k, values: v };
  }

  it("writes every record at the first save, then only the records that changed or went", async () => {
    const table = new IdbTable(NAME, STORE, keys);
    await table.save();
    expect(saves[0]).toHaveLength(21);
    await write((tx) => {
      tx.objectStore("sessions").put({ id: "s3", room: "!r", pickle: new Uint8Array([99]) });
      tx.objectStore("sessions").delete("s4");
    });
    await table.save();
    expect(saves[1]!.map((c) => [c.objectStore, c.value === null ? "removed" : "written"])).toEqual([
      ["sessions", "written"],
      ["sessions", "removed"],
    ]);
    expect(db.prepare("SELECT count(*) AS n FROM device_key_records").get()).toEqual({ n: 20 });
  });

  it("writes nothing when the crypto only read", async () => {
    const table = new IdbTable(NAME, STORE, keys);
    await table.save();
    await all("sessions");
    await table.save();
    expect(saves).toHaveLength(1);
  });

  it("recreates the database from the table: records, keys, indexes and version", async () => {
    await new IdbTable(NAME, STORE, keys).save();
    const before = { sessions: await all("sessions"), core: await all("core") };
    await dropDatabase(NAME);
    expect(await new IdbTable(NAME, STORE, keys).restore()).toBe(true);
    expect({ sessions: await all("sessions"), core: await all("core") }).toEqual(before);
    const database = await open();
    expect(database.version).toBe(3);
    expect([...database.transaction(["sessions"], "readonly").objectStore("sessions").indexNames]).toEqual(["by_room"]);
    database.close();
  });

  it("finds no store to restore for a device it never saw", async () => {
    expect(await new IdbTable(NAME, "matrix/OTHER", keys).restore()).toBe(false);
  });

  it("refuses a damaged store with a Matrix crypto error naming it", async () => {
    keys.save(STORE, "not json", []);
    await expect(new IdbTable(NAME, STORE, keys).restore()).rejects.toThrow(MatrixCryptoError);
    await expect(new IdbTable(NAME, STORE, keys).restore()).rejects.toThrow(/matrix\/TEST cannot be read/);
  });
});
