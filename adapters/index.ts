import type { Lilo, Logger } from "../core/index.ts";
import { matrixStarter } from "./matrix/starter.ts";
import { startTelegram } from "./telegram/bot.ts";

/** A running adapter; `stop` ends polling / syncing and unregisters its push transport. */
export interface RunningAdapter {
  name: string;
  stop(): Promise<void>;
}

/** Starts one platform adapter when its configuration is present; undefined when it is not configured. */
export type AdapterStarter = (lilo: Lilo, logger: Logger) => Promise<RunningAdapter | undefined>;

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
