import type { Middleware } from "grammy";
import type { LiloContext } from "./context.ts";
import { parseStopCallback, type LiveAnswers } from "./live-answer.ts";

/**
 * The stop buttons of answers being written: Telegram's own under a draft
 * (the `stopped_message_generation` update) and the inline button under a
 * message of the edit fallback. It runs before the per-chat queue, as the
 * turn it stops is the one holding that queue. Only the person of the
 * private chat can press either; a press on an answer already finished
 * only stops the client's spinner.
 */
export function stopButtons(live: LiveAnswers): Middleware<LiloContext> {
  return async (ctx, next) => {
    const stopped = ctx.update.stopped_message_generation;
    if (stopped) {
      const answer = live.get(stopped.chat.id);
      if (answer?.hasDraft(stopped.draft_id)) answer.stop();
      return;
    }
    const query = ctx.callbackQuery;
    const liveId = query?.data !== undefined ? parseStopCallback(query.data) : undefined;
    if (!query || liveId === undefined) return next();
    const chat = query.message?.chat;
    const answer = chat && chat.type === "private" && chat.id === query.from.id ? live.get(chat.id) : undefined;
    if (answer?.id === liveId) answer.stop();
    await ctx.answerCallbackQuery();
  };
}
