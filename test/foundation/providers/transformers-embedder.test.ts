import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { env, pipeline } from "@huggingface/transformers";
import { EmbedderError } from "../../../core/foundation/errors.ts";
import { DEFAULT_EMBEDDING_MODEL, TransformersEmbedder } from "../../../core/foundation/providers/transformers-embedder.ts";
import { cosine } from "../../fakes/controlled-embedder.ts";
import { createTinyModel } from "../../fixtures/tiny-model.ts";

// The real pipeline, only wrapped in a spy so the tests can count loads.
vi.mock("@huggingface/transformers", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@huggingface/transformers")>();
  return { ...actual, pipeline: vi.fn(actual.pipeline) };
});

const MODEL = "test/tiny-bert";
const DIM = 48;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lilo-embedder-"));
  await createTinyModel(dir, MODEL, { dim: DIM });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  vi.mocked(pipeline).mockClear();
});

const embedder = () => new TransformersEmbedder({ model: MODEL, localDir: dir, offline: true });
const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("TransformersEmbedder on a generated tiny model, offline", () => {
  it("builds without loading anything, named after its model", () => {
    expect(embedder().id).toBe(MODEL);
    expect(new TransformersEmbedder({ localDir: dir, offline: true }).id).toBe(DEFAULT_EMBEDDING_MODEL);
    expect(pipeline).not.toHaveBeenCalled();
  });

  it("reads the dimension from the model", async () => {
    expect(await embedder().dimension()).toBe(DIM);
  });

  it("returns unit-length Float32Arrays of that dimension", async () => {
    const vectors = await embedder().embed(["I like coffee", "ich trinke gerne Kaffee", "zebra quokka", ""]);
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(DIM);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it("gives the same text the same vector, across calls and instances", async () => {
    const e = embedder();
    const [a, b] = await e.embed(["My sister lives in Berlin", "My sister lives in Berlin"]);
    const [c] = await e.embed(["My sister lives in Berlin"]);
    const [d] = await embedder().embed(["My sister lives in Berlin"]);
    expect(Array.from(b!)).toEqual(Array.from(a!));
    expect(Array.from(c!)).toEqual(Array.from(a!));
    expect(Array.from(d!)).toEqual(Array.from(a!));
  });

  it("scores texts that share words above unrelated texts", async () => {
    const [coffee, tea, market, trinke, mag, kino] = await embedder().embed([
      "I like coffee",
      "I like tea",
      "the stock market crash",
      "ich trinke gerne Kaffee",
      "ich mag Kaffee",
      "heute Abend Kino",
    ]);
    expect(cosine(coffee!, tea!)).toBeGreaterThan(cosine(coffee!, market!) + 0.3);
    expect(cosine(trinke!, mag!)).toBeGreaterThan(cosine(trinke!, kino!) + 0.3);
  });

  it("keeps batch order, also across internal batches", async () => {
    const e = embedder();
    const texts = Array.from({ length: 70 }, (_, i) => `${["cat", "dog", "tea", "rain", "music"][i % 5]} ${"morning ".repeat(i % 7)}`);
    const batch = await e.embed(texts);
    expect(batch).toHaveLength(texts.length);
    for (const i of [0, 1, 31, 32, 33, 64, 69]) {
      const [single] = await e.embed([texts[i]!]);
      expect(cosine(batch[i]!, single!)).toBeCloseTo(1, 5);
    }
    expect(await e.embed([])).toEqual([]);
  });

  it("loads once for concurrent first calls", async () => {
    const e = embedder();
    const [dim, [a], [b]] = await Promise.all([e.dimension(), e.embed(["cat"]), e.embed(["dog"]), e.embed(["tea"])]);
    expect(dim).toBe(DIM);
    expect(a).toHaveLength(DIM);
    expect(b).toHaveLength(DIM);
    await e.embed(["later call"]);
    expect(pipeline).toHaveBeenCalledTimes(1);
  });

  it("loads the fp32 file when asked", async () => {
    const e = new TransformersEmbedder({ model: MODEL, localDir: dir, offline: true, dtype: "fp32" });
    expect(await e.dimension()).toBe(DIM);
  });

  describe("with downloads allowed, but no network", () => {
    const realFetch = env.fetch;
    const fetched: string[] = [];
    beforeEach(() => {
      fetched.length = 0;
      env.fetch = async (url: string | URL) => {
        fetched.push(String(url));
        throw new TypeError("fetch failed: no network in tests");
      };
    });
    afterAll(() => {
      env.fetch = realFetch;
    });

    it("loads a model already in localDir without touching the network", async () => {
      const e = new TransformersEmbedder({ model: MODEL, localDir: dir, offline: false });
      expect(await e.dimension()).toBe(DIM);
      expect(fetched).toEqual([]);
    });

    it("reports a failed download with model, directory and how to place the files", async () => {
      const e = new TransformersEmbedder({ model: "test/not-downloadable", localDir: dir, offline: false });
      const err = await e.dimension().catch((x: unknown) => x);
      expect(err).toBeInstanceOf(EmbedderError);
      expect((err as Error).message).toMatch(/"test\/not-downloadable" could not be loaded from .* nor downloaded from Hugging Face/);
      expect((err as Error).message).toContain(join(dir, "test/not-downloadable"));
      expect(fetched.some((u) => u.startsWith("https://huggingface.co/test/not-downloadable/"))).toBe(true);
    });
  });

  it("a missing model is an EmbedderError naming model and directory, not remembered once the files arrive", async () => {
    const e = new TransformersEmbedder({ model: "test/not-there", localDir: dir, offline: true });
    const err = await e.embed(["hello"]).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(err).toBeInstanceOf(EmbedderError);
    const message = (err as EmbedderError).message;
    expect(message).toContain('"test/not-there"');
    expect(message).toContain(dir);
    expect(message).toContain("offline");
    expect((err as EmbedderError).cause).toBeInstanceOf(Error);
    expect((err as EmbedderError).code).toBe("embedder");

    // A failed load is not remembered: once the files are there, the same instance works.
    await createTinyModel(dir, "test/not-there", { dim: 16 });
    expect(await e.dimension()).toBe(16);
  });
});
