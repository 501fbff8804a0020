import type { AfterReplyTask, TurnMiddleware } from "./types.ts";

/** The chat-log vectors the catch-up fills (core/memory/recall/message-vectors.ts). */
interface MessageVectorCatchUp {
  /** Embeds a batch of the user's newest messages that have no vector yet; returns how many. */
  catchUp(userId: string): Promise<number>;
}

/**
 * Embedding the chat log's newest messages (this exchange, and a batch of an
 * older log still without vectors) as a durable after-reply job: the answer
 * does not wait for up to 64 embeddings, and a crash before the job ran
 * leaves it recorded with the answer, resumed on start like the extraction.
 */
export function messageVectorsTask(vectors: MessageVectorCatchUp): AfterReplyTask<void> {
  return {
    kind: "message-vectors",
    async run({ user }) {
      await vectors.catchUp(user.userId);
    },
  };
}

/** Registers the catch-up for after the reply; it is recorded only when a model answer is stored. */
export function messageVectorsAfterReply(task: AfterReplyTask<void>): TurnMiddleware {
  return {
    name: "message-vectors",
    tasks: [task],
    async run(ctx, next) {
      ctx.waitUntil(task, undefined);
      await next();
    },
  };
}
