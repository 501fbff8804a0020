import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLilo, loadConfig, type Lilo } from "../../../core/index.ts";
import { HashEmbedder } from "../../../core/foundation/providers/hash-embedder.ts";
import { EmbeddedIndex } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import { openDatabase } from "../../../core/foundation/store/db.ts";
import { entryScript } from "../../helpers/entry.ts";

/** A user's chat-message vectors get a graph from this many on (LILO_MESSAGE_GRAPH_MIN_SIZE), in the child and after the restart. */
const MESSAGE_GRAPH_MIN_SIZE = 8;

/** Starts the burst child and SIGKILLs it once it has done `ops` changes. */
function burstAndKill(dir: string, ops: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entryScript("test/helpers/index-burst-child.ts"), dir, String(MESSAGE_GRAPH_MIN_SIZE)], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      const last = /ops (\d+)\n$/.exec(d.toString());
      if (last && Number(last[1]) >= ops) child.kill("SIGKILL");
    });
    child.on("exit", (_code, signal) => (signal === "SIGKILL" ? resolve() : reject(new Error(`child ended without being killed: ${err}`))));
  });
}

describe("embedded index after SIGKILL during a burst of adds, forgets and chat messages (in a message graph)", () => {
  let dir: string;
  let lilo: Lilo | undefined;
  afterEach(async () => {
    await lilo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("equals what SQLite says after the restart: no forgotten note found, no note missing", async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-kill-"));
    // Two rounds: the second child starts from the first one's crash.
    await burstAndKill(dir, 60);
    await burstAndKill(dir, 140);

    const config = loadConfig({ LILO_DATA_DIR: dir });
    const db = openDatabase(config.dbPath);
    const index = new EmbeddedIndex(db, { messageGraphMinSize: MESSAGE_GRAPH_MIN_SIZE });
    const embedder = new HashEmbedder(64);
    lilo = createLilo(config, { embedder, vectorIndex: index });
    await lilo.warmUp();
    await index.graphsBuilt(); // loaded with the snapshot, or built again when the kill came before it was saved

    const inSqlite = (
      db.prepare("SELECT store, row_id AS rowId, user_id AS userId FROM memory_vectors").all() as { store: string; rowId: number; userId: string }[]
    )
      .map((k) => `${k.store}/${k.userId}/${k.rowId}`)
      .sort();
    const inIndex = (await index.keys()).map((k) => `${k.store}/${k.userId}/${k.rowId}`).sort();
    expect(inSqlite.length).toBeGreaterThan(20);
    expect(inIndex).toEqual(inSqlite);
    expect(index.copyState()).toMatchObject({ rebuildNeeded: undefined });

    // Against the rows: a forget removes the vector before the row, so no vector outlives its row;
    // an add killed between row and vector leaves at most one row per crash for `lilo doctor --apply`.
    const report = await lilo.maintenance.check();
    expect(report.vectorsWithoutRow).toEqual([]);
    expect(report.rowsWithoutVector.length).toBeLessThanOrEqual(2);
    await lilo.maintenance.repair(report);
    const after = await lilo.maintenance.check();
    expect(after.rowsWithoutVector).toEqual([]);

    // Every live note is found by its own text, and only live notes are found.
    const stored = db.prepare("SELECT id, user_id AS userId, text FROM notes").all() as { id: number; userId: string; text: string }[];
    for (const r of stored.slice(-15)) {
      const [top] = await index.search({ vector: (await embedder.embed([r.text]))[0]!, store: "notes", userId: r.userId, k: 1 });
      expect(top?.rowId).toBe(r.id);
    }
    // Chat messages: every embedded message is in the index and found by its own text after the restart.
    const messages = db.prepare("SELECT m.id, m.user_id AS userId, m.text FROM messages m JOIN message_vectors v ON v.message_id = m.id").all() as {
      id: number;
      userId: string;
      text: string;
    }[];
    expect(messages.length).toBeGreaterThan(5);
    expect(inIndex.filter((k) => k.startsWith("messages/")).length).toBeGreaterThanOrEqual(messages.length);
    for (const m of messages.slice(-10)) {
      const [top] = await index.search({ vector: (await embedder.embed([m.text]))[0]!, store: "messages", userId: m.userId, k: 1 });
      expect(top?.rowId).toBe(m.id);
    }
    // ... answered through the graph of the user with the most messages.
    expect(index.copyState().graphs).toBeGreaterThanOrEqual(1);
    expect(index.copyState().graphSearches).toBeGreaterThan(0);
    const live = new Set(stored.map((r) => r.id));
    for (const user of ["anna", "ben"]) {
      const hits = await index.search({ vector: (await embedder.embed(["Notiz etwas über Thema"]))[0]!, store: "notes", userId: user, k: 500 });
      expect(hits.filter((h) => !live.has(h.rowId))).toEqual([]);
    }
  }, 60_000);
});
