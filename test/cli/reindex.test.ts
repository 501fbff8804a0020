import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { JobsStore } from "../../core/foundation/store/jobs.ts";
import type { Embedder } from "../../core/foundation/ports/embedder.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

const NOTES = 100;

describe("lilo reindex is resumable", () => {
  let t: TestLilo;
  let db: Db;
  /** Texts embedded through `counting`, to see that a continued reindex does not start over. */
  let embedded = 0;
  let counting: Embedder;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: counting, db, clock: t.lilo.clock });
  const reindexJobs = () =>
    db.prepare(`SELECT status, payload FROM jobs WHERE kind = 'maintenance:reindex' ORDER BY id`).all() as { status: string; payload: string }[];

  beforeEach(async () => {
    // The offline hash embedder: a vector for any number of texts.
    const base = new HashEmbedder(64);
    t = makeTestLilo({}, { embedder: base });
    db = openLiloDatabase(t.lilo.config);
    counting = {
      id: base.id,
      dimension: () => base.dimension(),
      embed: (texts) => ((embedded += texts.length), base.embed(texts)),
    };
    for (let i = 0; i < NOTES; i++) await t.lilo.memory.add({ text: `Notiz ${i}`, userId: "owner" });
    embedded = 0;
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("a stopped reindex keeps its progress in a job, from which the next `lilo reindex --apply` continues", async () => {
    const first = open();
    const stop = new AbortController();
    const outcome = await first.maintenance.reindex((done) => {
      if (done >= 32) stop.abort();
    }, stop.signal);
    expect(outcome).toMatchObject({ done: 32, total: NOTES, finished: false });
    expect(first.maintenance.pendingReindex()).toMatchObject({ embedderId: counting.id, reset: true, store: 0, done: 32 });
    await first.close();
    expect((await runCli(open, ["reindex"])).out).toContain(`an interrupted reindex (${counting.id}) got to 32 memories`);

    embedded = 0;
    const run = await runCli(open, ["reindex", "--apply"]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("reindex started at 32 of 100");
    expect(run.out).toContain(`reindexed ${NOTES} memories (continued an interrupted reindex)`);
    expect(embedded).toBe(NOTES - 32);
    expect(reindexJobs().map((j) => j.status)).toEqual(["done"]);
    const report = JSON.parse((await runCli(open, ["doctor", "--json"])).out);
    expect(report).toMatchObject({ rows: NOTES, vectors: NOTES, rowsWithoutVector: [] });
  });

  it("a reindex a live process runs is left to it: lilo reindex --apply refuses, the after-reply job runner passes it by", async () => {
    const jobs = new JobsStore(db);
    // A live process that is not this one (the test runner's parent) owns it.
    const owner = { pid: process.ppid, startTicks: null };
    jobs.add(
      "",
      "maintenance:reindex",
      { embedderId: counting.id, dimension: 64, reset: true, store: 0, lastId: 10, done: 10, owner },
      "2026-12-03T10:00:00.000Z",
    );
    const lilo = open();
    expect(lilo.inbox.resumeJobs()).toBe(0);
    await lilo.idle();
    await lilo.close();
    const refused = await runCli(open, ["reindex", "--apply"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`A reindex is already running (pid ${process.ppid})`);
    expect(reindexJobs().map((j) => j.status)).toEqual(["pending"]);
  });

  it("lilo reindex --apply takes over a dead process's reindex, starting over when it was for another model", async () => {
    const jobs = new JobsStore(db);
    const dead = { pid: 2 ** 22 + 12345, startTicks: null };
    jobs.add(
      "",
      "maintenance:reindex",
      { embedderId: "old-model", dimension: 32, reset: true, store: 2, lastId: 5, done: 90, owner: dead },
      "2026-12-03T10:00:00.000Z",
    );
    const run = await runCli(open, ["reindex", "--apply"]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("reindex started at 0 of 100");
    expect(run.out).not.toContain("continued");
    expect(embedded).toBe(NOTES);
    expect(reindexJobs().map((j) => j.status)).toEqual(["done"]);
  });
});
