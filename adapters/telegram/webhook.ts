import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { webhookCallback, type Bot } from "grammy";
import { describeError, type Logger } from "../../core/index.ts";
import type { LiloContext } from "./context.ts";

/** The updates Lilo asks Telegram for, by polling or webhook: messages, button presses and presses on a draft's stop button. */
export const TELEGRAM_UPDATES = ["message", "callback_query", "stopped_message_generation"] as const;

/** A running webhook listener. */
export interface WebhookServer {
  /** The address it listens on (server.address(): 127.0.0.1 unless TELEGRAM_WEBHOOK_HOST says otherwise). */
  address: string;
  /** The port it listens on (useful when 0 was asked for). */
  port: number;
  close(): Promise<void>;
}

/**
 * The secret Telegram sends with every webhook call (X-Telegram-Bot-Api-
 * Secret-Token), derived from the bot token: only Telegram, which knows it
 * from setWebhook, can post updates, so nobody can pose as an allowed user
 * by posting to the URL. Telegram allows 1–256 characters of A-Z a-z 0-9 _ -.
 */
export function webhookSecret(token: string): string {
  return createHash("sha256").update(`lilo-webhook:${token}`).digest("hex");
}

/**
 * Registers `url` with Telegram and serves it on `host`:`port` with node:http and
 * grammY's webhookCallback. The bot's middleware hands the work to a
 * per-chat queue and returns at once, so Telegram gets its 200 immediately
 * and never re-sends an update because a model call was slow.
 */
export async function startWebhook(bot: Bot<LiloContext>, opts: { url: string; host: string; port: number; logger: Logger }): Promise<WebhookServer> {
  const secret = webhookSecret(bot.token);
  const handle = webhookCallback(bot, "http", { secretToken: secret });
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    handle(req, res).catch((err: unknown) => {
      opts.logger.warn("telegram webhook request failed", { error: describeError(err) });
      if (!res.headersSent) res.writeHead(400).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Only the given address: a reverse proxy on this machine forwards Telegram's calls, nobody else reaches the port.
    server.listen(opts.port, opts.host, () => resolve());
  });
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  try {
    await bot.api.setWebhook(opts.url, { secret_token: secret, allowed_updates: [...TELEGRAM_UPDATES] });
  } catch (err) {
    await close();
    throw err;
  }
  const bound = server.address() as AddressInfo;
  return { address: bound.address, port: bound.port, close };
}
