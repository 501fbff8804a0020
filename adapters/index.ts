import type { Lilo, Logger } from "../core/index.ts";
import type { AdapterStarter, RunningAdapter } from "./adapter.ts";
import { matrixStarter } from "./matrix/starter.ts";
import { startTelegram } from "./telegram/bot.ts";

/** Every platform adapter Lilo knows, in start order. */
export const ADAPTERS: AdapterStarter[] = [startTelegram, matrixStarter];

/** Starts every configured adapter. */
export async function startConfiguredAdapters(lilo: Lilo, logger: Logger): Promise<RunningAdapter[]> {
  const running: RunningAdapter[] = [];
  for (const start of ADAPTERS) {
    const adapter = await start(lilo, logger);
    if (adapter) {
      logger.info(`${adapter.name} adapter running`);
      running.push(adapter);
    }
  }
  return running;
}
