/**
 * An on-disk vector cache in front of any embedder, keyed by the embedder's
 * id and a hash of the text, so benchmark re-runs take seconds instead of
 * re-embedding thousands of turns on the CPU. Benchmark only.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { Embedder } from "../../../core/foundation/ports/embedder.ts";

/** Wraps `inner`; vectors live in `<dir>/<embedder id>.json` (text hash → base64 floats). */
export class CachedEmbedder implements Embedder {
  readonly id: string;
  private readonly file: string;
  private readonly cache: Map<string, string>;
  private dirty = 0;

  constructor(
    private readonly inner: Embedder,
    dir: string,
  ) {
    this.id = inner.id;
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${inner.id.replace(/[^\w.-]+/g, "_")}.json`);
    this.cache = new Map(existsSync(this.file) ? Object.entries(JSON.parse(readFileSync(this.file, "utf8")) as Record<string, string>) : []);
  }

  dimension(): Promise<number> {
    return this.inner.dimension();
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const keys = texts.map((t) => createHash("sha256").update(t).digest("base64url").slice(0, 22));
    const missing = [...new Set(texts.filter((_, i) => !this.cache.has(keys[i]!)))];
    if (missing.length) {
      const vectors = await this.inner.embed(missing);
      missing.forEach((t, i) => {
        const v = vectors[i]!;
        this.cache.set(createHash("sha256").update(t).digest("base64url").slice(0, 22), Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64"));
      });
      this.dirty += missing.length;
      if (this.dirty >= 200) this.save();
    }
    return keys.map((k) => {
      const b = Buffer.from(this.cache.get(k)!, "base64");
      return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    });
  }

  /** Writes new vectors to disk. */
  save(): void {
    if (!this.dirty) return;
    writeFileSync(this.file, JSON.stringify(Object.fromEntries(this.cache)));
    this.dirty = 0;
  }
}
