import type { ChatModel, ChatRequest, ChatResponse } from "../ports/chat-model.ts";
import type { IndexStore, VectorHit, VectorIndex, VectorKey, VectorQuery, VectorRecord } from "../ports/vector-index.ts";

/**
 * Providers whose SDK loads on first use. @anthropic-ai/sdk, openai and the
 * Qdrant client each take a noticeable part of a second to import; a `lilo rules list` or a
 * process that never calls the model should not pay for them.
 */

/** A ChatModel that imports and builds the real one on its first call. */
export function lazyChatModel(provider: string, model: string, load: () => Promise<ChatModel>): ChatModel {
  let loaded: Promise<ChatModel> | undefined;
  return {
    provider,
    model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      loaded ??= load();
      return (await loaded).complete(request);
    },
  };
}

/** A VectorIndex that imports and builds the real one on its first call; `close` before that does nothing. */
export function lazyVectorIndex(name: string, load: () => Promise<VectorIndex>): VectorIndex {
  let loaded: Promise<VectorIndex> | undefined;
  const index = () => (loaded ??= load());
  return {
    name,
    init: async (dimension: number, embedderId: string) => (await index()).init(dimension, embedderId),
    upsert: async (records: VectorRecord<IndexStore>[]) => (await index()).upsert(records),
    delete: async (keys: VectorKey<IndexStore>[]) => (await index()).delete(keys),
    search: async <S extends IndexStore>(query: VectorQuery<S>): Promise<VectorHit<S>[]> => (await index()).search(query),
    keys: async () => (await index()).keys(),
    reset: async (dimension: number, embedderId: string) => (await index()).reset(dimension, embedderId),
    close: async () => {
      if (loaded) await (await loaded).close();
    },
  };
}
