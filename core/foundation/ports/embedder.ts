/**
 * Turns texts into vectors. Implementations return unit-length vectors so that
 * cosine similarity is a plain dot product.
 */
export interface Embedder {
  /** Names the model; stored with the index so a model switch is noticed. */
  readonly id: string;
  /** Vector length, read from the model (may load it). */
  dimension(): Promise<number>;
  /** One vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}
