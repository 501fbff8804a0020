import type { Composer } from "grammy";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { clip, forgetNote } from "./memory-view.ts";
import { editText, setKeyboard, parseCallback } from "./render.ts";

/** Telegram shows at most 200 characters in a callback answer. */
const NOTE_MAX = 190;

/**
 * Button presses: yes/no answers to the core's questions and "forget" on
 * the /memory list. Every press is answered (the client's spinner stops);
 * only the question's owner changes anything.
 */
export function registerCallbacks(bot: Composer<LiloContext>, deps: TelegramDeps): void {
  bot.on("callback_query:data", async (ctx) => {
    const action = parseCallback(ctx.callbackQuery.data);
    if (action?.kind === "answer") return answerQuestion(ctx, deps, action.questionId, action.answer);
    if (action?.kind === "forget") return forgetFromButton(ctx, deps, action.noteId);
    await ctx.answerCallbackQuery();
  });
}

async function answerQuestion(ctx: LiloContext, deps: TelegramDeps, questionId: number, answer: "yes" | "no"): Promise<void> {
  const outcome = await deps.lilo.questions.answer(ctx.liloUserId, questionId, answer);
  const msg = ctx.callbackQuery?.message;
  if (outcome.ok) {
    await ctx.answerCallbackQuery();
    // The buttons give way to the outcome ("📌 Gemerkt: …"), under the question.
    if (msg) await editText(ctx.api, msg.chat.id, msg.message_id, `${"text" in msg && msg.text ? msg.text : ""}\n\n${outcome.text}`, deps.logger);
    return;
  }
  await ctx.answerCallbackQuery({ text: clip(outcome.text, NOTE_MAX) });
  // Someone else's question keeps its buttons for its owner; a closed or expired one loses them.
  if (outcome.reason !== "not-yours" && msg) await setKeyboard(ctx.api, msg.chat.id, msg.message_id, [], deps.logger);
}

async function forgetFromButton(ctx: LiloContext, deps: TelegramDeps, noteId: number): Promise<void> {
  const result = await forgetNote(deps, ctx.liloUserId, noteId);
  await ctx.answerCallbackQuery({ text: clip(result.text, NOTE_MAX) });
  const msg = ctx.callbackQuery?.message;
  if (!result.ok || !msg) return;
  const rows = (msg.reply_markup?.inline_keyboard ?? [])
    .map((row) => row.filter((b) => !("callback_data" in b && b.callback_data === ctx.callbackQuery?.data)))
    .filter((row) => row.length > 0);
  await setKeyboard(ctx.api, msg.chat.id, msg.message_id, rows, deps.logger);
}
