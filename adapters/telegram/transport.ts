import type { Api } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { LiloError, type Logger, type PushMessage, type PushTarget, type Transport } from "../../core/index.ts";
import { sendText } from "./render.ts";

/** Transport name under which pushes reach Telegram (stored with each opt-in). */
export const TELEGRAM_TRANSPORT = "telegram";

/**
 * Lilo's pushes (greetings, concerns, diary pings, test pushes) on Telegram:
 * the same safe HTML and splitting as chat answers. Errors propagate, so
 * the push log records "failed" with Telegram's reason.
 */
export function telegramTransport(api: Api, logger: Logger, buttons?: (reminderId: number) => InlineKeyboardButton[]): Transport {
  return {
    name: TELEGRAM_TRANSPORT,
    async send(target: PushTarget, message: PushMessage): Promise<void> {
      // Numeric ids are users and groups; "@channel" names stay strings.
      const chatId = /^-?\d+$/.test(target.chatId) ? Number(target.chatId) : target.chatId;
      // Private chats have positive ids; a group or channel target (set before Lilo was private-only) gets nothing.
      if (typeof chatId !== "number" || chatId <= 0) throw new LiloError("not-private", `Telegram chat ${target.chatId} is not a private chat: push withheld`);
      // A rung reminder carries its buttons: done, snooze, delete.
      const keyboard = message.reminderId !== undefined && buttons ? { inline_keyboard: [buttons(message.reminderId)] } : undefined;
      await sendText(api, chatId, message.text, logger, keyboard);
    },
  };
}
