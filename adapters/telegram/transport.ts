import type { Api } from "grammy";
import type { Logger, PushMessage, PushTarget, Transport } from "../../core/index.ts";
import { sendText } from "./render.ts";

/** Transport name under which pushes reach Telegram (stored with each opt-in). */
export const TELEGRAM_TRANSPORT = "telegram";

/**
 * Lilo's pushes (greetings, concerns, diary pings, test pushes) on Telegram:
 * the same safe HTML and splitting as chat answers. Errors propagate, so
 * the push log records "failed" with Telegram's reason.
 */
export function telegramTransport(api: Api, logger: Logger): Transport {
  return {
    name: TELEGRAM_TRANSPORT,
    async send(target: PushTarget, message: PushMessage): Promise<void> {
      // Numeric ids are users and groups; "@channel" names stay strings.
      const chatId = /^-?\d+$/.test(target.chatId) ? Number(target.chatId) : target.chatId;
      await sendText(api, chatId, message.text, logger);
    },
  };
}
