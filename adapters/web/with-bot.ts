import { describeError, type Lilo, type Logger } from "../../core/index.ts";
import { webConfig } from "./config.ts";
import type { WebServer } from "./server.ts";

/**
 * The pages served by the bot's process when LILO_WEB_PORT is set (LILO_WEB_HOST, set in `.env`, counts as
 * chosen on purpose). A page server that cannot start (port taken) is logged; the bot runs on without it.
 */
export async function startBotPages(lilo: Lilo, logger: Logger): Promise<WebServer | undefined> {
  const web = webConfig(lilo.config);
  if (!web.port) return undefined;
  try {
    // Loaded only when the pages are on: the bot's start does not pay for Hono and the pages otherwise.
    const { startWebServer } = await import("./server.ts");
    const server = await startWebServer(lilo, logger, { host: web.host, port: web.port, hostGiven: true, publicUrl: web.publicUrl });
    logger.info(`Lilo's pages on ${server.url}: /web in Telegram or \`lilo web --link\` gives a login link`);
    return server;
  } catch (err) {
    logger.error("Lilo's pages could not start; the bot runs without them", { port: web.port, error: describeError(err) });
    return undefined;
  }
}
