/**
 * Child process of the SIGKILL test: a burst of adds and forgets through the
 * real Memory code path on the embedded index, and chat messages imported and
 * embedded into the same index, until it is killed. Prints "ops N" after each
 * change so the parent knows when to kill.
 */
import { createLilo, loadConfig } from "../../core/index.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";
import { openDatabase } from "../../core/foundation/store/db.ts";
import { ANY_USER } from "../../core/index.ts";

const dir = process.argv[2]!;
const config = loadConfig({ LILO_DATA_DIR: dir });
const db = openDatabase(config.dbPath);
// A small saveEvery and tiny snapshot sizes: changes are appended to the snapshot's log mid-burst and new snapshots
// are written in the background in small steps, so a kill can land before, during or after an append or a snapshot.
// A message graph from a handful of messages (argv[3]): built in the background during the burst, so a kill can land
// mid-build, and a finished graph is saved with the snapshot.
const messageGraphMinSize = Number(process.argv[3] ?? Number.POSITIVE_INFINITY);
const vectorIndex = new EmbeddedIndex(db, { saveEvery: 7, keepLog: 5, compactAtBytes: 4096, snapshotChunkBytes: 300, messageGraphMinSize, graphChunk: 4 });
const lilo = createLilo(config, { db, embedder: new HashEmbedder(64), vectorIndex });
const added: number[] = [];
for (let i = 0; ; i++) {
  const r = await lilo.memory.add({ text: `Notiz ${process.pid}-${i}: etwas über Thema ${i % 13}`, userId: i % 3 ? "anna" : "ben", allowDuplicate: true });
  if (r.added) added.push(r.id);
  if (i % 3 === 2 && added.length > 2) {
    const id = added.splice((i * 7) % added.length, 1)[0]!;
    await lilo.memory.forget(ANY_USER, "notes", id);
  }
  if (i % 4 === 0) {
    // Chat messages go into the same index (store "messages") when they are embedded.
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    lilo.recall.importChat([{ userId: i % 8 ? "anna" : "ben", role: "user", text: `Nachricht ${process.pid}-${i} über Thema ${i % 5}`, createdAt: at }]);
    await lilo.recall.indexMessages(i % 8 ? "anna" : "ben");
  }
  process.stdout.write(`ops ${i}\n`);
}
