import type { Composer } from "grammy";
import { webConfig } from "../web/config.ts";
import { botPagesUrl, loginLink } from "../web/login-link.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { sendText } from "./render.ts";

/** What /web answers, in the persona's language. */
export const WEB_TEXTS = {
  de: {
    link: (url: string, minutes: number) =>
      `🔑 Deine Seiten: ${url}\n\nDer Link gilt ${minutes} ${minutes === 1 ? "Minute" : "Minuten"} und meldet dich einmal an.`,
    off: "Meine Seiten laufen gerade nicht mit dem Bot (LILO_WEB_PORT ist nicht gesetzt). Wer mich betreibt, kann sie mit `lilo web` starten.",
  },
  en: {
    link: (url: string, minutes: number) =>
      `🔑 Your pages: ${url}\n\nThe link is valid for ${minutes} ${minutes === 1 ? "minute" : "minutes"} and logs you in once.`,
    off: "My pages are not running with the bot (LILO_WEB_PORT is not set). Whoever runs me can start them with `lilo web`.",
  },
} as const;

/**
 * /web: a one-time login link to Lilo's pages for the user who asks (their own memories only). Only in a
 * private chat, since anyone who sees the link before it is used could open it.
 */
export function registerWebCommand(bot: Composer<LiloContext>, { lilo, logger }: TelegramDeps): void {
  bot.command("web", async (ctx) => {
    if (ctx.chat.type !== "private") return;
    const texts = WEB_TEXTS[lilo.config.persona.language];
    const url = botPagesUrl(lilo);
    const text = url ? texts.link(loginLink(lilo, url, ctx.liloUserId), webConfig(lilo.config).linkMinutes) : texts.off;
    await sendText(ctx.api, ctx.chat.id, text, logger);
  });
}
