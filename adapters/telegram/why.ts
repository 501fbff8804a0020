import { InlineKeyboard, type Composer } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { groupWhyItems, type Verdict, type VerdictOutcome, type WhyView } from "../../core/internal.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { WHY_TEXTS, verdictText, whyText } from "../shared/why-texts.ts";
import { forgetCommand } from "../shared/forget-command.ts";
import { forgetNote, clip } from "./memory-view.ts";
import { sendQuestion, sendText, setKeyboard } from "./render.ts";

/** Button data: `w:<x|o|f>:<ref>` — wrong, outdated, forget everywhere (well under Telegram's 64 bytes). */
const ACTIONS = { x: "wrong", o: "outdated", f: "forget" } as const;
const DATA = /^w:([xof]):([A-Za-z]\d{1,12})$/;
/** Telegram shows at most 200 characters in a callback answer. */
const TOAST = 190;

/**
 * /why: the memories the last answer's sheet held — or those of
 * the answer the command replies to — each with the buttons "stimmt nicht"
 * (Lilo asks what is wrong; the reply is judged), "veraltet" and "vergessen". /forget takes words or a reference too (the
 * list and a yes/no come first); /wrong and /outdated take a reference.
 */
export function registerWhy(bot: Composer<LiloContext>, deps: TelegramDeps): void {
  const { lilo, logger } = deps;
  const language = lilo.config.persona.language;
  const t = WHY_TEXTS[language];

  bot.command("why", async (ctx) => {
    const reply = ctx.msg.reply_to_message;
    const replied = reply?.message_id;
    const answerId = replied !== undefined ? deps.answerMessages.get(`${ctx.chat.id}:${replied}`) : undefined;
    // A rung or confirmed reminder carries its id in its buttons; without a reply, her newest message may be a rung reminder.
    const reminderId = reply ? reminderIdOf(reply) : undefined;
    const reminder = answerId === undefined && (!reply || reminderId !== undefined) ? lilo.reminders.why(ctx.liloUserId, reminderId) : undefined;
    if (reminder) return void (await sendText(ctx.api, ctx.chat.id, reminder, logger));
    const view = lilo.why.why(ctx.liloUserId, answerId);
    await sendText(ctx.api, ctx.chat.id, whyText(language, view, false), logger, view?.items.length ? keyboard(view, t) : undefined);
  });

  bot.command("forget", async (ctx) => {
    const r = await forgetCommand(lilo, ctx.liloUserId, ctx.match);
    if (r.kind === "note") return void (await sendText(ctx.api, ctx.chat.id, (await forgetNote(deps, ctx.liloUserId, r.id)).text, logger));
    if (r.kind === "say") return void (await sendText(ctx.api, ctx.chat.id, r.text, logger));
    const messageId = await sendQuestion(ctx.api, ctx.chat.id, r.question, logger);
    if (messageId !== undefined) deps.questionMessages.set(String(ctx.chat.id), messageId);
  });

  /** "stimmt nicht" asks what is wrong (the reply goes to the judge); anything else says what was done. */
  const showVerdict = async (api: LiloContext["api"], chatId: number, outcome: VerdictOutcome | undefined) => {
    if (!outcome?.question) return void (await sendText(api, chatId, verdictText(language, outcome), logger));
    const messageId = await sendQuestion(api, chatId, outcome.question, logger);
    if (messageId !== undefined) deps.questionMessages.set(String(chatId), messageId);
  };

  for (const verdict of ["wrong", "outdated"] as const) {
    bot.command(verdict, async (ctx) => showVerdict(ctx.api, ctx.chat.id, await lilo.why.verdict(ctx.liloUserId, ctx.match.trim(), verdict)));
  }

  bot.callbackQuery(DATA, async (ctx) => {
    const [, code, ref] = DATA.exec(ctx.callbackQuery.data)!;
    const action = ACTIONS[code as keyof typeof ACTIONS];
    const chatId = ctx.chat!.id;
    if (action === "forget") {
      const r = await forgetCommand(lilo, ctx.liloUserId, ref!);
      await ctx.answerCallbackQuery(r.kind === "say" ? { text: clip(r.text, TOAST) } : undefined);
      if (r.kind !== "ask") return;
      const messageId = await sendQuestion(ctx.api, chatId, r.question, logger);
      if (messageId !== undefined) deps.questionMessages.set(String(chatId), messageId);
      return;
    }
    const outcome = await lilo.why.verdict(ctx.liloUserId, ref!, action as Verdict);
    if (outcome?.question) {
      await ctx.answerCallbackQuery();
      return showVerdict(ctx.api, chatId, outcome);
    }
    await ctx.answerCallbackQuery({ text: clip(verdictText(language, outcome), TOAST) });
    const msg = ctx.callbackQuery.message;
    if (!outcome || !msg) return;
    // The item's row of buttons goes: it is no longer on what Lilo remembers.
    const rows = (msg.reply_markup?.inline_keyboard ?? []).filter((row) => !row.some((b) => "callback_data" in b && b.callback_data.endsWith(`:${ref}`)));
    await setKeyboard(ctx.api, msg.chat.id, msg.message_id, rows, logger);
  });
}

/** The reminder a message's buttons act on (`r:<id>:…`), if it has such buttons. */
function reminderIdOf(message: { reply_markup?: InlineKeyboardMarkup }): number | undefined {
  for (const row of message.reply_markup?.inline_keyboard ?? []) {
    for (const b of row) {
      const m = "callback_data" in b ? /^r:(\d+):/.exec(b.callback_data) : null;
      if (m) return Number(m[1]);
    }
  }
  return undefined;
}

/**
 * One row per fact, as the text lists them: its three actions, labelled with
 * its first reference. A fact kept in several stores acts through its first
 * copy; forgetting it finds the other copies by their words.
 */
function keyboard(view: WhyView, t: (typeof WHY_TEXTS)["de" | "en"]): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const [item] of groupWhyItems(view.items).map((g) => g.items)) {
    if (!item) continue;
    if (item.actions.includes("wrong")) kb.text(`${item.ref} ${t.wrong}`, `w:x:${item.ref}`);
    if (item.actions.includes("outdated")) kb.text(`${t.outdated}`, `w:o:${item.ref}`);
    if (item.actions.includes("forget")) kb.text(`${item.actions.length === 1 ? `${item.ref} ` : ""}${t.forget}`, `w:f:${item.ref}`);
    kb.row();
  }
  return kb;
}
