import { describe, expect, it } from "vitest";
import { HashEmbedder } from "../../../core/foundation/providers/hash-embedder.ts";
import { cosine } from "../../fakes/controlled-embedder.ts";

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("HashEmbedder", () => {
  it("is named hash-<dim>, 384 dimensions by default", async () => {
    expect(new HashEmbedder().id).toBe("hash-384");
    expect(await new HashEmbedder().dimension()).toBe(384);
    expect(new HashEmbedder(64).id).toBe("hash-64");
    expect(() => new HashEmbedder(0)).toThrow(RangeError);
  });

  it("returns unit vectors, one per text, in order, also for texts without words", async () => {
    const texts = ["Ich gehe heute ins Kino", "", "!!! ???", "Coffee"];
    const vectors = await new HashEmbedder(128).embed(texts);
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      expect(v).toHaveLength(128);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    const [coffee] = await new HashEmbedder(128).embed(["Coffee"]);
    expect(Array.from(vectors[3]!)).toEqual(Array.from(coffee!));
  });

  it("is case-insensitive", async () => {
    const [a, b] = await new HashEmbedder().embed(["Meine Schwester wohnt in Berlin", "meine schwester WOHNT in berlin"]);
    expect(Array.from(b!)).toEqual(Array.from(a!));
  });

  it("is deterministic across instances", async () => {
    const [a] = await new HashEmbedder().embed(["Meine Schwester wohnt in Berlin"]);
    const [c] = await new HashEmbedder().embed(["Meine Schwester wohnt in Berlin"]);
    expect(Array.from(c!)).toEqual(Array.from(a!));
  });

  it("scores shared words and word fragments above unrelated texts", async () => {
    const [kino, kinoabend, buero, coffee, coffee2, stocks] = await new HashEmbedder().embed([
      "Kino",
      "Kinoabend",
      "Büro",
      "I like coffee in the morning",
      "I drink coffee every morning",
      "stock market crash",
    ]);
    expect(cosine(coffee!, coffee2!)).toBeGreaterThan(0.4);
    expect(cosine(coffee!, stocks!)).toBeLessThan(0.2);
    expect(cosine(kino!, kinoabend!)).toBeGreaterThan(0.2);
    expect(cosine(kino!, buero!)).toBeLessThan(0.1);
  });
});
