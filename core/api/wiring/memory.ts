/**
 * Memory and the chat log's search: the embedder, the vector index (the
 * embedded one on SQLite's vectors, or Qdrant), the memory stores' keyword
 * index, `Memory` (row and vector together) and the chat-log search built
 * on them. Nothing loads here: the embedder loads on the first memory access.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { VectorIndex } from "../../foundation/ports/vector-index.ts";
import type { Embedder } from "../../foundation/ports/embedder.ts";
import { isEncryptedFile, type Db } from "../../foundation/store/db.ts";
import { configuredDataKey } from "../../foundation/store/data-key.ts";
import { lazyVectorIndex } from "../../foundation/providers/lazy.ts";
import { EmbeddedIndex } from "../../foundation/providers/embedded-index/embedded-index.ts";
import { TransformersEmbedder } from "../../foundation/providers/transformers-embedder.ts";
import { Memory } from "../../memory/memory.ts";
import { EmbeddingGate } from "../../memory/embedding-gate.ts";
import { EmbeddingStatusRecord } from "../../memory/embedding-status.ts";
import { markIndexBehind, reindexPending } from "../../memory/maintenance.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import type { JobsStore } from "../../foundation/store/jobs.ts";
import type { LiloPorts } from "../lilo-ports.ts";
import type { Base } from "./foundation.ts";
import { wireChatRecall, type ChatRecallWiring } from "./chat-recall.ts";
import { memoryKeywordIndex } from "./keyword-indexes.ts";

/** Memory, the chat-log search, and what they are built on. */
export interface Remembering extends ChatRecallWiring {
  embedder: Embedder;
  /** Whether the embedding model is there; recall by words only while it is not. */
  gate: EmbeddingGate;
  /** The bot's way of recall as `lilo status` reads it. */
  recallState: EmbeddingStatusRecord;
  index: VectorIndex;
  memory: Memory;
  /** Closes the keyword indexes and the vector index. */
  close(): Promise<void>;
}

/** Builds memory and the chat-log search from the configuration and the ports. */
export function wireMemory(
  base: Base,
  ports: Pick<LiloPorts, "embedder" | "vectorIndex" | "tuning" | "reranker" | "lexicon" | "holdIndexUpkeep">,
  stores: { settings: SettingsStore; jobs: JobsStore },
): Remembering {
  const { config, db, clock, logger } = base;
  const embedder =
    ports.embedder ?? new TransformersEmbedder({ model: config.embedding.model, localDir: config.embedding.localDir, offline: config.embedding.offline });
  const recallState = new EmbeddingStatusRecord(stores.settings);
  const gate = new EmbeddingGate(embedder, {
    clock,
    logger,
    record: recallState,
    retryMs: config.embedding.retrySeconds * 1000,
    folder: `${config.embedding.localDir}/${embedder.id}`,
    behind: { mark: () => markIndexBehind(stores.jobs, clock.now().toISOString()), pending: () => reindexPending(stores.jobs) },
  });
  const index = ports.vectorIndex ?? defaultIndex(config, db, logger, ports.holdIndexUpkeep ?? false);
  const memoryKeywords = memoryKeywordIndex(config, db, logger);
  const memory = new Memory(db, embedder, index, clock, {
    keywords: memoryKeywords,
    notesMinScore: config.memory.notesMinScore,
    dedupMinScore: config.memory.dedupMinScore,
    gate,
    ...(ports.tuning?.hybrid ? { hybrid: ports.tuning.hybrid } : {}),
  });
  const chat = wireChatRecall(config, {
    db,
    clock,
    logger,
    memory,
    embedder,
    gate,
    index,
    reranker: ports.reranker,
    lexicon: ports.lexicon,
    tuning: ports.tuning,
  });
  return {
    ...chat,
    embedder,
    gate,
    recallState,
    index,
    memory,
    close: async () => {
      chat.chatKeywords?.close();
      memoryKeywords?.close();
      await index.close();
    },
  };
}

/** The configured vector index: Qdrant when set up, otherwise the embedded index on SQLite's vectors. */
function defaultIndex(config: LiloConfig, db: Db, logger: Logger, holdUpkeep: boolean): VectorIndex {
  if (config.vector.backend === "qdrant" && config.vector.qdrantUrl) {
    const options = {
      url: config.vector.qdrantUrl,
      collection: config.vector.collection,
      ...(config.vector.qdrantApiKey ? { apiKey: config.vector.qdrantApiKey } : {}),
    };
    const name = `qdrant (${options.url}, collection ${options.collection ?? "lilo"})`;
    return lazyVectorIndex(name, async () => new (await import("../../foundation/providers/qdrant-index.ts")).QdrantIndex(options));
  }
  // The sqlite-vec backend is gone; its tables are taken over by the embedded index on this start.
  if (config.vector.removedBackend) {
    logger.warn("LILO_VECTOR_BACKEND=sqlite-vec is no longer supported and is read as embedded; set LILO_VECTOR_BACKEND=embedded (or remove the line) in .env");
  }
  // Beside an encrypted database the snapshot and its log are sealed with a key derived from the data key.
  const dataKey = !db.memory && isEncryptedFile(config.dbPath) ? configuredDataKey(config) : undefined;
  return new EmbeddedIndex(db, {
    ...(dataKey ? { dataKey } : {}),
    warn: (message) => logger.warn(message),
    debug: (message) => logger.debug(message),
    graphMinSize: config.vector.graphMinSize,
    messageGraphMinSize: config.vector.messageGraphMinSize,
    residualBudgetMb: config.vector.residualMb,
    holdUpkeep,
  });
}
