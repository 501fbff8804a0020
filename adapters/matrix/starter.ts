import type { AdapterStarter } from "../adapter.ts";
import { matrixConfig } from "./config.ts";

/**
 * Starter for adapters/index.ts: runs only when MATRIX_HOMESERVER_URL and
 * MATRIX_ACCESS_TOKEN are set. The SDK is loaded on demand (it takes about
 * a second to import), so installations without Matrix never pay for it.
 */
export const matrixStarter: AdapterStarter = async (lilo, logger) => {
  const { homeserverUrl, accessToken } = matrixConfig(lilo.config);
  if (!homeserverUrl || !accessToken) return undefined;
  const { startMatrix } = await import("./bot.ts");
  return startMatrix(lilo, logger);
};
