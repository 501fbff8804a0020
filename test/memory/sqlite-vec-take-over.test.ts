import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, loadConfig, type Lilo, type Logger } from "../../core/index.ts";
import { openDatabase } from "../../core/foundation/store/db.ts";
import { FIXTURE_ENTRIES, fixtureEmbedder, SQLITE_VEC_DB } from "../fixtures/sqlite-vec-db.ts";

/** A logger that keeps every warning. */
function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (msg) => void warnings.push(msg), error() {} };
}

/** The tables of the removed sqlite-vec backend still in the file, and how many vectors the embedded index holds. */
function tablesOf(file: string): { vec0: string[]; embedded: number | undefined } {
  const db = openDatabase(file);
  try {
    const vec0 = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'vec_memory*' ORDER BY name`).pluck().all() as string[];
    const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'memory_vectors'`).get() !== undefined;
    const embedded = has ? (db.prepare(`SELECT COUNT(*) AS n FROM memory_vectors`).get() as { n: number }).n : undefined;
    return { vec0, embedded };
  } finally {
    db.close();
  }
}

const live = FIXTURE_ENTRIES.filter((f) => !f.forgotten);

describe("a database written by the sqlite-vec backend, started with the embedded index", () => {
  let dir: string;
  let file: string;
  let lilo: Lilo | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-take-over-"));
    file = join(dir, "lilo.db");
    copyFileSync(SQLITE_VEC_DB, file);
  });
  afterEach(async () => {
    await lilo?.close();
    lilo = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}) => {
    const embedder = fixtureEmbedder();
    const logger = recordingLogger();
    lilo = createLilo(loadConfig({ LILO_DATA_DIR: dir, LILO_MODEL_MAX_RETRIES: "0", ...env }), { embedder, logger });
    return { lilo, embedder, logger };
  };

  /** Every live entry is found by a query that shares no word with it (the vector side), the forgotten one is not. */
  async function expectAllFoundByMeaning(l: Lilo): Promise<void> {
    for (const f of live) {
      const hits = await l.memory.search(f.query, { userId: f.userId, store: f.store, k: 3, minScore: 0.9 });
      expect(
        hits.map((h) => h.text),
        f.query,
      ).toEqual([f.text]);
    }
    const gone = FIXTURE_ENTRIES.find((f) => f.forgotten)!;
    expect(await l.memory.search(gone.query, { userId: gone.userId, store: gone.store, k: 3, minScore: 0.5 })).toEqual([]);
  }

  it("moves every vector out of sqlite-vec on the first start without embedding a stored text again", async () => {
    expect(tablesOf(file).embedded).toBeUndefined();
    expect(tablesOf(file).vec0).toEqual(
      expect.arrayContaining(["vec_memory", "vec_memory_chunks", "vec_memory_meta", "vec_memory_rowids", "vec_memory_vector_chunks00"]),
    );
    const { lilo: l, embedder, logger } = start();
    const report = await l.maintenance.check();
    expect(report).toMatchObject({ rows: live.length, vectors: live.length, rowsWithoutVector: [], vectorsWithoutRow: [], halfDeleted: [] });
    expect(embedder.calls).toEqual([]); // nothing embedded at start
    await expectAllFoundByMeaning(l);
    // The only texts ever embedded are the queries: no stored entry was embedded again.
    expect(embedder.calls.flat().sort()).toEqual([...FIXTURE_ENTRIES.map((f) => f.query)].sort());
    expect(logger.warnings).toEqual([]);
    await l.close();
    lilo = undefined;
    // Only the declaration of the vec0 table is left (it owns no page); its data and model record are gone.
    expect(tablesOf(file)).toEqual({ vec0: ["vec_memory"], embedded: live.length });

    // The next start finds nothing to take over and still finds everything.
    const again = start();
    await expectAllFoundByMeaning(again.lilo);
    expect(again.embedder.calls.flat().sort()).toEqual([...FIXTURE_ENTRIES.map((f) => f.query)].sort());
    expect((await again.lilo.maintenance.check()).vectors).toBe(live.length);
  });

  it("reads LILO_VECTOR_BACKEND=sqlite-vec as embedded, with a warning that says what to set", async () => {
    const { lilo: l, embedder, logger } = start({ LILO_VECTOR_BACKEND: "sqlite-vec" });
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/LILO_VECTOR_BACKEND=sqlite-vec is no longer supported.*read as embedded.*set LILO_VECTOR_BACKEND=embedded/);
    await expectAllFoundByMeaning(l);
    expect(embedder.calls.flat().sort()).toEqual([...FIXTURE_ENTRIES.map((f) => f.query)].sort());
    await l.close();
    lilo = undefined;
    expect(tablesOf(file)).toEqual({ vec0: ["vec_memory"], embedded: live.length });
  });
});
