/**
 * The keyword indexes in memory as configured: FTS5's bm25 per user (and per
 * memory store), without walking every user's postings. 0 MB turns one off,
 * and FTS5 ranks that side's searches as before.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Db } from "../../foundation/store/db.ts";
import { describeError } from "../../foundation/errors.ts";
import { ChatKeywordRows } from "../../foundation/store/chat-keyword-rows.ts";
import { MemoryKeywordRows } from "../../foundation/store/memory-keyword-rows.ts";
import { ChatKeywordIndex } from "../../memory/recall/keyword-index/chat-keyword-index.ts";
import { MemoryKeywordIndex } from "../../memory/recall/keyword-index/memory-keyword-index.ts";

/** The memory stores' index (notes, important, thoughts, diary), or undefined when `LILO_MEMORY_KEYWORD_INDEX_MB=0`. */
export function memoryKeywordIndex(config: LiloConfig, db: Db, logger: Logger): MemoryKeywordIndex | undefined {
  if (!config.memory.memoryKeywordIndexMb) return undefined;
  return new MemoryKeywordIndex(new MemoryKeywordRows(db), {
    maxBytes: config.memory.memoryKeywordIndexMb * 1024 * 1024,
    onProblem: (key, error) =>
      logger.warn("memories not indexed in memory; FTS5 ranks this user's searches of the store", { key, error: describeError(error) }),
  });
}

/** The chat log's index, or undefined when `LILO_CHAT_KEYWORD_INDEX_MB=0`. */
export function chatKeywordIndex(config: LiloConfig, db: Db, logger: Logger): ChatKeywordIndex | undefined {
  if (!config.memory.chatKeywordIndexMb) return undefined;
  return new ChatKeywordIndex(new ChatKeywordRows(db), {
    maxBytes: config.memory.chatKeywordIndexMb * 1024 * 1024,
    onProblem: (userId, error) => logger.warn("chat log not indexed in memory; FTS5 ranks this user's searches", { userId, error: describeError(error) }),
  });
}
