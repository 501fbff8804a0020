import { InlineKeyboard, type Composer } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import type { Lilo } from "../../core/index.ts";
import type { Reminder, Snooze } from "../../core/internal.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { sendText, setKeyboard } from "./render.ts";
import { TELEGRAM_TRANSPORT } from "./transport.ts";

/** Telegram shows at most 200 characters in a callback answer. */
const NOTE_MAX = 190;

/** What a reminder button does: done, snooze by 10 min / 1 h / to tomorrow, delete. */
type ReminderAction = "d" | "s10" | "s60" | "st" | "x";
const SNOOZES: Partial<Record<ReminderAction, Snooze>> = { s10: "10m", s60: "1h", st: "tomorrow" };

/** The buttons of one reminder as one row; `label` puts its number first, as in the /reminders list. */
export function reminderRow(lilo: Lilo, id: number, label?: string): InlineKeyboardButton[] {
  const b = lilo.reminders.buttons();
  const data = (a: ReminderAction) => `r:${id}:${a}`;
  return [
    InlineKeyboard.text(label ? `${label} ${b.done}` : b.done, data("d")),
    InlineKeyboard.text(b.snooze10, data("s10")),
    InlineKeyboard.text(b.snooze60, data("s60")),
    InlineKeyboard.text(b.tomorrow, data("st")),
    InlineKeyboard.text(b.delete, data("x")),
  ];
}

/** The /reminders list: numbered lines, then one row of buttons per reminder (and what was missed while Lilo was down). */
function listView(lilo: Lilo, waiting: Reminder[], missed: Reminder[], texts: { title: string; empty: string; missed: string }) {
  const lines = waiting.length === 0 ? [texts.empty] : [texts.title, ...waiting.map((r, i) => `${i + 1}. ${lilo.reminders.line(r)}`)];
  if (missed.length > 0) lines.push("", texts.missed, ...missed.slice(-5).map((r) => `• ${lilo.reminders.line(r)}`));
  return { text: lines.join("\n"), buttons: waiting.map((r, i) => reminderRow(lilo, r.id, `${i + 1}.`)) };
}

/**
 * /remind <when> <what> (the program reads the time from the words, no
 * model call), /reminders with buttons per reminder, and the presses of
 * those buttons, here and under a rung reminder. Only the owner's presses
 * change anything: someone else's reminder id is "not found".
 */
export function registerReminders(bot: Composer<LiloContext>, deps: TelegramDeps): void {
  const { lilo, logger } = deps;
  bot.command("remind", async (ctx) => {
    const outcome = lilo.reminders.set({
      userId: ctx.liloUserId,
      words: ctx.match,
      transport: TELEGRAM_TRANSPORT,
      chatId: String(ctx.chat.id),
      group: ctx.chat.type !== "private",
      source: "command",
    });
    const keyboard = outcome.ok ? { inline_keyboard: [reminderRow(lilo, outcome.reminder.id)] } : undefined;
    await sendText(ctx.api, ctx.chat.id, outcome.text, logger, keyboard);
  });

  bot.command("reminders", async (ctx) => {
    const t = lilo.reminders;
    const words = { title: deps.texts.remindersTitle, empty: deps.texts.remindersEmpty, missed: deps.texts.remindersMissed };
    const view = listView(lilo, t.list(ctx.liloUserId), t.missed(ctx.liloUserId), words);
    await sendText(ctx.api, ctx.chat.id, view.text, logger, view.buttons.length > 0 ? { inline_keyboard: view.buttons } : undefined);
  });

  bot.callbackQuery(/^r:(\d+):(d|s10|s60|st|x)$/, async (ctx) => {
    const id = Number(ctx.match[1]);
    const action = ctx.match[2] as ReminderAction;
    const snooze = SNOOZES[action];
    const user = ctx.liloUserId;
    const outcome = snooze ? lilo.reminders.snooze(user, id, snooze) : action === "d" ? lilo.reminders.done(user, id) : lilo.reminders.cancel(user, id);
    await ctx.answerCallbackQuery({ text: outcome.text.slice(0, NOTE_MAX) });
    const msg = ctx.callbackQuery.message;
    // A reminder done or deleted loses its row of buttons; a snoozed one keeps it.
    if (!outcome.ok || snooze || !msg) return;
    const rows = (msg.reply_markup?.inline_keyboard ?? []).filter((row) => !row.some((b) => "callback_data" in b && b.callback_data.startsWith(`r:${id}:`)));
    await setKeyboard(ctx.api, msg.chat.id, msg.message_id, rows, logger);
  });
}
