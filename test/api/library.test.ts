import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLilo, loadConfig, type Lilo } from "../../core/index.ts";
import { createTinyModel } from "../fixtures/tiny-model.ts";

describe("Lilo as a library with the default wiring", () => {
  let dir: string;
  let lilo: Lilo;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-lib-"));
    const model = await createTinyModel(join(dir, "models"), "test/tiny-bert");
    // No ports passed: createLilo builds the transformers.js embedder and the embedded index from config.
    lilo = createLilo(
      loadConfig({ LILO_DATA_DIR: dir, LILO_EMBEDDING_MODEL: model.modelId, LILO_EMBEDDING_MODEL_DIR: join(dir, "models"), LILO_EMBEDDING_OFFLINE: "true" }),
    );
  });
  afterEach(async () => {
    await lilo.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps memories apart per user and store: a search finds one user's store only, each hit { id, text, score, createdAt }, one text stored once", async () => {
    const a = await lilo.memory.add({ text: "kino film", store: "notes", userId: "u1", createdAt: "2025-03-01T12:00:00Z" });
    await lilo.memory.add({ text: "kaffee garten", store: "notes", userId: "u1" });
    await lilo.memory.add({ text: "kino film", store: "notes", userId: "u2" });
    await lilo.memory.add({ text: "kino film", store: "thoughts", userId: "u1" });
    const hits = await lilo.memory.search("kino", { store: "notes", k: 10, userId: "u1" });
    expect(hits[0]).toMatchObject({ id: a.added ? a.id : -1, text: "kino film", createdAt: "2025-03-01T12:00:00.000Z" });
    expect(hits[0]!.score).toBeGreaterThan(hits[1]?.score ?? -1);
    expect(hits.every((h) => h.store === "notes")).toBe(true);
    expect(hits.map((h) => h.text)).not.toContain(undefined);
    expect(hits).toHaveLength(2);
    // The exact same text is not stored twice.
    expect(await lilo.memory.add({ text: "kino film", userId: "u1" })).toMatchObject({ added: false, reason: "exact-duplicate" });
  });
});
