import { z } from "zod";
import { bool, int, opt, positive, setting as s, url } from "./rules.ts";

/* The embedder and the vector index. */

/** embedding: a section of the table in schema.ts. */
export const embeddingSettings = z.object({
  model: s(opt(), {
    env: "LILO_EMBEDDING_MODEL",
    doc: "default follows LILO_LANGUAGE: de → Xenova/paraphrase-multilingual-MiniLM-L12-v2 (≈ 120 MB), en → Xenova/all-MiniLM-L6-v2 (≈ 25 MB); after a switch run `lilo reindex --apply`",
    group: "embeddings",
    listed: "embedding.model",
  }),
  localDir: s(opt(), {
    env: "LILO_EMBEDDING_MODEL_DIR",
    doc: "downloaded once on first start, then read from here; default $LILO_DATA_DIR/models",
    group: "embeddings",
    example: "data/models",
  }),
  offline: s(bool(false), { env: "LILO_EMBEDDING_OFFLINE", doc: "true: never download; the model must be in the directory", group: "embeddings" }),
  retrySeconds: s(positive(60), {
    env: "LILO_EMBEDDING_RETRY_SECONDS",
    doc: "without the model (offline, files missing) Lilo recalls by words only and the running bot tries it again after this long, doubling up to 16 times it",
    group: "embeddings",
  }),
});
// Lilo's own model, run in this process (LILO_CHAT_MODEL=local:<name or file.gguf>)

/** vector: a section of the table in schema.ts. */
export const vectorSettings = z.object({
  backend: s(z.enum(["embedded", "sqlite-vec", "qdrant"]).optional(), {
    env: "LILO_VECTOR_BACKEND",
    doc: "embedded (default: vectors in the SQLite file + int8 RAM copy saved as lilo.db.vectors) or qdrant (needs QDRANT_URL; default when it is set); the removed sqlite-vec is read as embedded",
    group: "embeddings",
    example: "embedded",
    listed: "vector.backend",
  }),
  graphMinSize: s(int(2_000_000), {
    env: "LILO_VECTOR_GRAPH_MIN_SIZE",
    doc: "embedded: a user's store with this many vectors is searched through an HNSW graph",
    group: "embeddings",
  }),
  // The chat messages' own threshold (their graph searches wider per hit asked than a notes graph)
  messageGraphMinSize: s(int(100_000), {
    env: "LILO_MESSAGE_GRAPH_MIN_SIZE",
    doc: "embedded: a user's chat-message vectors are searched through an HNSW graph from this many on (below: exact scan)",
    group: "embeddings",
  }),
  // Rescoring in RAM for partitions with a graph (no float reads from SQLite)
  residualMb: s(int(256), {
    env: "LILO_VECTOR_RESIDUAL_MB",
    doc: "embedded: RAM (MB) for the residuals that let a store with a graph rescore in RAM (38.5 MB per 100k vectors of 384 dims); 0 = read floats from SQLite",
    group: "embeddings",
  }),
  qdrantUrl: s(url(), { env: "QDRANT_URL", doc: "a Qdrant server", group: "embeddings", example: "http://127.0.0.1:6333" }),
  qdrantApiKey: s(opt(), { env: "QDRANT_API_KEY", doc: "the Qdrant server's API key, when it asks for one", group: "embeddings", secret: true }),
  collection: s(z.string().trim().min(1).default("lilo"), {
    env: "QDRANT_COLLECTION",
    doc: "the Qdrant collection that holds Lilo's vectors",
    group: "embeddings",
  }),
});
