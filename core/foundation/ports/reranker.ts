/**
 * A cross-encoder: reads a question and a text together and says how well
 * the text answers it (a sharper judge than comparing two separate vectors,
 * and slower: used only on the few best candidates).
 */
export interface Reranker {
  /** The model in use (for logs and the benchmark). */
  readonly id: string;
  /** One relevance score per text, in order; higher is more relevant (logits, any scale). */
  score(query: string, texts: string[]): Promise<number[]>;
}
