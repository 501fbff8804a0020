/**
 * The chat-log search behind the cheat sheet, [RECALL:] and `lilo.recall`:
 * its keyword index, the message vectors, the concept step, the optional
 * cross-encoder and the question's statement form, built once from the
 * configuration and the ports.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Embedder } from "../../foundation/ports/embedder.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Lexicon } from "../../foundation/ports/lexicon.ts";
import type { Reranker } from "../../foundation/ports/reranker.ts";
import type { VectorIndex } from "../../foundation/ports/vector-index.ts";
import type { Db } from "../../foundation/store/db.ts";
import { TransformersReranker } from "../../foundation/providers/transformers-reranker.ts";
import type { Memory } from "../../memory/memory.ts";
import type { EmbeddingGate } from "../../memory/embedding-gate.ts";
import type { ConceptStep } from "../../memory/recall/concept-matches.ts";
import { MessageVectors } from "../../memory/recall/message-vectors.ts";
import { ChatSearch, type ChatSearchTuning } from "../../memory/recall/search.ts";
import type { ChatFusionTuning, ChatRecallDeps } from "../../memory/recall/sheet-recall.ts";
import { wireConcepts, type ConceptWiring } from "./concepts.ts";
import { chatKeywordIndex } from "./keyword-indexes.ts";

/** What the chat-log search is built from besides the configuration. */
interface ChatRecallParts {
  db: Db;
  clock: Clock;
  logger: Logger;
  memory: Memory;
  embedder: Embedder;
  gate: EmbeddingGate;
  index: VectorIndex;
  reranker?: Reranker | undefined;
  lexicon?: Lexicon | undefined;
  tuning?: { chat?: Partial<ChatSearchTuning>; chatFusion?: Partial<ChatFusionTuning>; concepts?: Partial<Omit<ConceptStep, "lexicon">> } | undefined;
}

/** The search's deps and the pieces the rest of Lilo drives (catching up vectors, closing the index). */
export interface ChatRecallWiring {
  chatRecall: ChatRecallDeps;
  chatSearch: ChatSearch;
  messageVectors: MessageVectors;
  concepts: ConceptWiring;
  chatKeywords: ReturnType<typeof chatKeywordIndex>;
}

/** Builds the chat-log search. */
export function wireChatRecall(config: LiloConfig, p: ChatRecallParts): ChatRecallWiring {
  const { memory } = p;
  const chatKeywords = chatKeywordIndex(config, p.db, p.logger);
  const chatSearch = new ChatSearch(p.db, config.timezone, p.tuning?.chat, chatKeywords);
  const messageVectors = new MessageVectors(p.db, p.embedder, p.index, () => memory.init(), p.gate);
  const concepts = wireConcepts(config, p.logger, p.lexicon, p.tuning?.concepts);
  const chatRecall: ChatRecallDeps = {
    recall: chatSearch,
    clock: p.clock,
    timeZone: config.timezone,
    vectors: messageVectors,
    fusion: p.tuning?.chatFusion,
    minSimilarity: () => memory.thresholds.notesMinScore,
    reranking: sheetReranking(config, p.reranker, p.logger),
    speakers: (userId) => ({ user: config.persona.userNames[userId], assistant: config.persona.name }),
    concepts: concepts.step,
    embed: (text) => memory.vectorFor(text),
  };
  return { chatRecall, chatSearch, messageVectors, concepts, chatKeywords };
}

/** The configured reranker (or the given one) with its depth; undefined when none is set: reranking is off by default. */
function sheetReranking(config: LiloConfig, given: Reranker | undefined, logger: Logger): ChatRecallDeps["reranking"] {
  const model = config.memory.rerankerModel;
  const reranker = given ?? (model ? new TransformersReranker({ model, localDir: config.embedding.localDir, offline: config.embedding.offline }) : undefined);
  return reranker ? { reranker, topN: config.memory.rerankTopN, logger } : undefined;
}
