import { describe, expect, it } from "vitest";
import { ControlledEmbedder, basisVector, cosine, vectorWithCosine } from "./controlled-embedder.ts";

describe("ControlledEmbedder", () => {
  it("returns the chosen vectors, normalised", async () => {
    const e = new ControlledEmbedder(8).set("a", [3, 4, 0, 0, 0, 0, 0, 0]);
    const [a] = await e.embed(["a"]);
    expect(Array.from(a!)).toEqual([0.6, 0.8, 0, 0, 0, 0, 0, 0].map((x) => Math.fround(x)));
    expect(await e.dimension()).toBe(8);
    expect(e.id).toBe("controlled-8");
    expect(() => e.set("b", [1, 2])).toThrow(RangeError);
    expect(() => e.set("b", new Array(8).fill(0))).toThrow(RangeError);
  });

  it("gives each unknown text a fixed vector orthogonal to every other text's", async () => {
    const e = new ControlledEmbedder(16).set("known", basisVector(16, 0));
    const [x, y, known, x2] = await e.embed(["unknown x", "unknown y", "known", "unknown x"]);
    expect(cosine(x!, y!)).toBe(0);
    expect(cosine(x!, known!)).toBe(0);
    expect(Array.from(x2!)).toEqual(Array.from(x!));
    expect(e.calls).toEqual([["unknown x", "unknown y", "known", "unknown x"]]);
  });

  it("runs out loudly instead of reusing a vector", async () => {
    const e = new ControlledEmbedder(2);
    await e.embed(["a", "b"]);
    await expect(e.embed(["c"])).rejects.toThrow(/larger dim/);
  });
});

describe("vectorWithCosine", () => {
  it.each([0.82, 0.3, 0, -0.5, 1])("returns a unit vector with cosine %s to the base", (cos) => {
    const base = [0.2, -1, 0.5, 0, 0, 0];
    const v = vectorWithCosine(base, cos);
    expect(Math.hypot(...v)).toBeCloseTo(1, 12);
    expect(cosine(v, base)).toBeCloseTo(cos, 12);
  });

  it("builds a vector with a given cosine to a dense base", () => {
    const base = [1, 2, 3, 4];
    expect(cosine(vectorWithCosine(base, 0.88), base)).toBeCloseTo(0.88, 12);
  });

  it("keeps the cosines it was given exact through the embedder", async () => {
    const q = basisVector(384, 0);
    const e = new ControlledEmbedder(384)
      .set("query", q)
      .set("near", vectorWithCosine(q, 0.82))
      .set("far", vectorWithCosine(q, 0.3, 1));
    const [query, near, far] = await e.embed(["query", "near", "far"]);
    expect(cosine(query!, near!)).toBeCloseTo(0.82, 6);
    expect(cosine(query!, far!)).toBeCloseTo(0.3, 6);
    // Different directions: the two only share their component along the base.
    expect(cosine(near!, far!)).toBeCloseTo(0.82 * 0.3, 6);
  });

  it("rejects impossible cosines", () => {
    expect(() => vectorWithCosine([1, 0], 1.1)).toThrow(RangeError);
    expect(() => vectorWithCosine([0, 0], 0.5)).toThrow(RangeError);
  });
});
