/**
 * SQLite's WAL checkpoints on a worker thread's own connection. By default
 * the connection that commits copies the WAL back into the database once it
 * holds 1,000 pages, inside that commit: better-sqlite3 is synchronous, so
 * the bot's event loop waits for the disk, and the copy can take many times
 * the commit's own work. The running bot turns that off on its connection and
 * lets a worker checkpoint every second instead (PASSIVE: it never blocks a
 * writer or a reader). Should the worker fail, the connection checkpoints on
 * commit again: the WAL never grows without bound. Short runs (the CLI) keep SQLite's default.
 */
import { once } from "node:events";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Db } from "./db-type.ts";
import type { DataKey } from "./data-key.ts";
import type { Logger } from "../ports/logger.ts";

/** SQLite's default: a commit checkpoints once the WAL holds this many pages. */
const AUTO_CHECKPOINT_PAGES = 1000;
/** How often the worker checkpoints. */
const EVERY_MS = 1000;

/** What a checkpoint reports: WAL frames in the log and frames copied back into the database. */
interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

type Reply = { id?: number; result?: CheckpointResult; message?: string };

// The worker is plain CommonJS run from this string (no file to find next to a bundle or under tsx).
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
for (const p of workerData.keyPragmas) db.pragma(p);
db.pragma("busy_timeout = 5000");
function checkpoint(id) {
  try {
    parentPort.postMessage({ id, result: db.pragma("wal_checkpoint(PASSIVE)")[0] });
  } catch (err) {
    parentPort.postMessage({ id, message: String((err && err.message) || err) });
  }
}
const timer = setInterval(() => checkpoint(undefined), workerData.everyMs);
parentPort.on("message", (m) => {
  if (m.kind === "now") checkpoint(m.id);
  if (m.kind === "stop") {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

export class BackgroundCheckpoints {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  private next = 0;
  private stopping = false;
  private failed = false;

  /** Starts checkpointing the database file `path` (open as `db`, encrypted with `key`) from a worker, every `everyMs`. */
  constructor(
    private readonly db: Db,
    path: string,
    private readonly logger: Logger,
    everyMs = EVERY_MS,
    key?: DataKey,
  ) {
    db.pragma("wal_autocheckpoint = 0");
    const driver = createRequire(import.meta.url).resolve("better-sqlite3-multiple-ciphers");
    this.worker = new Worker(WORKER, { eval: true, workerData: { driver, path, everyMs, keyPragmas: key?.pragmas ?? [] } });
    this.worker.unref(); // never what keeps the process alive; `stop` ends it
    this.worker.on("message", (m: Reply) => this.answer(m));
    this.worker.on("error", (err) => this.fallBack(err));
    this.worker.on("exit", (code) => {
      if (!this.stopping) this.fallBack(new Error(`the checkpoint worker exited (code ${code})`));
    });
  }

  /** True while the worker checkpoints (false after a failure: the connection checkpoints on commit again). */
  get running(): boolean {
    return !this.failed && !this.stopping;
  }

  /** Checkpoints now (tests, a look at the WAL). */
  now(): Promise<CheckpointResult> {
    if (!this.running) return Promise.reject(new Error("background checkpoints are not running"));
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ kind: "now", id });
    });
  }

  /** Ends the worker; the connection checkpoints on commit again (and on close, as SQLite does). */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    if (this.failed) return;
    const exited = once(this.worker, "exit");
    this.worker.ref(); // waited for now: an unref'd worker would let the process end before it has
    this.worker.postMessage({ kind: "stop" });
    await exited;
  }

  private answer(m: Reply): void {
    const w = m.id === undefined ? undefined : this.waiting.get(m.id);
    if (m.id !== undefined) this.waiting.delete(m.id);
    if (m.message !== undefined) {
      const err = new Error(`background checkpoint failed: ${m.message}`);
      if (w) w.reject(err);
      else this.logger.warn("background checkpoint failed; the next one tries again", { error: m.message });
      return;
    }
    w?.resolve(m.result!);
  }

  private fallBack(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.logger.warn("background checkpoints stopped: SQLite checkpoints on commit again", { error: err.message });
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
