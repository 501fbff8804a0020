import { wholeNumber as int, optionalText as opt, configLeaf as s, optionalUrl as url, configSection, sectionOf } from "../../core/internal.ts";
import { type LiloConfig } from "../../core/index.ts";
import { isIP } from "node:net";
import { z } from "zod";
import { parseAllowList } from "../shared/allow-list.ts";

/** An IP address or a host name (what node:http's listen takes as a host). */
function isListenAddress(v: string): boolean {
  return isIP(v) !== 0 || /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(v);
}

/**
 * Telegram's variables: a section of the configuration table (core/foundation/config/section.ts)
 * that app.ts and the CLI pass to loadConfig (adapters/config.ts). Read it with `telegramConfig`.
 */
export const TELEGRAM_SECTION = configSection({
  key: "telegram",
  groups: { telegram: { title: "Telegram" } },
  schema: z.object({
    token: s(opt(), { env: "TELEGRAM_BOT_TOKEN", doc: "from @BotFather", group: "telegram", example: "123456:ABC...", secret: true }),
    allowedUsers: s(z.string().default(""), {
      env: "TELEGRAM_ALLOWED_USERS",
      doc: 'Telegram user id = Lilo user id; without "=..." the id is telegram:<id>. Your numeric id: send the bot a message, a stranger\'s id is logged',
      group: "telegram",
      example: "123456789=owner",
    }),
    webhookUrl: s(url(), { env: "TELEGRAM_WEBHOOK_URL", doc: "empty: long polling; set: the public HTTPS URL Telegram posts updates to", group: "telegram" }),
    webhookPort: s(int(8080), {
      env: "TELEGRAM_WEBHOOK_PORT",
      doc: "local port of the webhook listener behind your reverse proxy; a secret derived from the token guards it",
      group: "telegram",
    }),
    webhookHost: s(z.string().trim().refine(isListenAddress, "an IP address or a host name").default("127.0.0.1"), {
      env: "TELEGRAM_WEBHOOK_HOST",
      doc: "address the webhook listener binds to: 127.0.0.1 for a reverse proxy on this machine; 0.0.0.0 or :: listens on every interface",
      group: "telegram",
    }),
    apiRoot: s(url(), { env: "TELEGRAM_API_ROOT", doc: "self-hosted Bot API server, e.g. http://127.0.0.1:8081", group: "telegram" }),
  }),
  derive: (raw, envOf) => ({ ...raw, allowedUsers: parseAllowList(envOf(["allowedUsers"]), raw.allowedUsers, "telegram") }),
});

/** The Telegram settings: token, allowlist (Telegram user id → Lilo user id), webhook and Bot API server. */
export type TelegramConfig = ReturnType<typeof TELEGRAM_SECTION.derive>;

/** Telegram's section of a configuration loaded with it. */
export const telegramConfig = (config: LiloConfig): TelegramConfig => sectionOf(TELEGRAM_SECTION, config);
