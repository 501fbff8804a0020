/**
 * The reranker port: a cross-encoder through transformers.js,
 * tested on a generated tiny sequence-classification model. Off by default;
 * when set, it reorders the sheet's chat-log candidates before the cut to
 * the budget, so its choice is what reaches the sheet; a broken model is
 * logged and the fused order stays.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fixedClock, loadConfig, type Logger } from "../../../core/index.ts";
import { sheetMessageIds } from "../../../core/conversation/turn/memory-blocks.ts";
import { TransformersReranker } from "../../../core/foundation/providers/transformers-reranker.ts";
import { LiloError } from "../../../core/foundation/errors.ts";
import { createTinyCrossEncoder } from "../../fixtures/tiny-model.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

const MODEL = "test/tiny-cross-encoder";
const clock = fixedClock("2026-12-02T18:00:00Z");
let dir: string;
let t: TestLilo | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lilo-reranker-"));
  // "coffee" answers a question about drinks far better than "tea" or "milk", whatever the keyword counts say.
  await createTinyCrossEncoder(dir, MODEL, { coffee: 5, tea: 1, milk: 0.5 });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** Two earlier messages: the keyword ranking prefers the tea one (the word twice, shorter), the cross-encoder the coffee one. */
function fill(lilo: TestLilo["lilo"]): number[] {
  return lilo.recall.importChat([
    { userId: "chris", role: "user", text: "i drink tea and i drink milk", createdAt: "2026-11-02T08:00:00Z" },
    { userId: "chris", role: "user", text: "at the office with my sister i drink coffee in the morning", createdAt: "2026-11-20T08:00:00Z" },
  ]);
}

const env = (extra: Record<string, string> = {}) => ({ LILO_PASSAGES_TOP_K: "1", LILO_EMBEDDING_MODEL_DIR: dir, LILO_EMBEDDING_OFFLINE: "true", ...extra });

describe("the reranker port", () => {
  it("scores (question, text) pairs with a cross-encoder's logits, in input order", async () => {
    const r = new TransformersReranker({ model: MODEL, localDir: dir, offline: true });
    const scores = await r.score("what do i drink", ["i like tea", "i drink coffee", "the cat", "kaffee"]);
    expect(scores).toHaveLength(4);
    expect(scores[1]).toBeCloseTo(5);
    expect(scores[0]).toBeCloseTo(1);
    expect(scores[2]).toBeCloseTo(0);
    expect(await r.score("anything", [])).toEqual([]);
  });

  it("says where the files were expected when a model is missing", async () => {
    const r = new TransformersReranker({ model: "test/absent", localDir: dir, offline: true });
    const err = await r.score("q", ["x"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiloError);
    expect((err as LiloError).code).toBe("reranker");
    expect((err as Error).message).toContain(join(dir, "test/absent"));
  });

  it("is off by default: the fused order decides what fits", async () => {
    expect(loadConfig({ LILO_DATA_DIR: dir }).memory.rerankerModel).toBeUndefined();
    t = makeTestLilo(env(), { clock });
    const [tea] = fill(t.lilo);
    const p = await t.lilo.preview({ userId: "chris", text: "What do I drink?" });
    expect(sheetMessageIds(p.blocks.passages.kept)).toEqual([tea]);
  });

  it("when set, reorders the candidates before the cut, so its choice reaches the sheet", async () => {
    t = makeTestLilo(env({ LILO_RERANKER_MODEL: MODEL }), { clock });
    const [tea, coffee] = fill(t.lilo);
    const p = await t.lilo.preview({ userId: "chris", text: "What do I drink?" });
    expect(sheetMessageIds(p.blocks.passages.kept)).toEqual([coffee]);
    expect(sheetMessageIds(p.blocks.passages.left)).toEqual([tea]);
    expect(p.request.system).toContain("i drink coffee in the morning");
  });

  it("keeps the fused order when the model cannot be loaded", async () => {
    t = makeTestLilo(env({ LILO_RERANKER_MODEL: "test/absent" }), { clock });
    const [tea] = fill(t.lilo);
    const p = await t.lilo.preview({ userId: "chris", text: "What do I drink?" });
    expect(sheetMessageIds(p.blocks.passages.kept)).toEqual([tea]);
  });

  it("logs a warning when the model cannot be loaded", async () => {
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, error() {}, warn: (msg) => void warnings.push(msg) };
    t = makeTestLilo(env({ LILO_RERANKER_MODEL: "test/absent" }), { clock, logger });
    fill(t.lilo);
    await t.lilo.preview({ userId: "chris", text: "What do I drink?" });
    expect(warnings.some((w) => w.includes("reranker failed"))).toBe(true);
  });
});
