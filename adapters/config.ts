import type { LiloConfig } from "../core/index.ts";
import type { SectionValues } from "../core/internal.ts";
import { MATRIX_SECTION, matrixConfig } from "./matrix/config.ts";
import { TELEGRAM_SECTION, telegramConfig } from "./telegram/config.ts";
import { WEB_SECTION } from "./web/config.ts";

/**
 * The adapters' sections of the configuration table, composed by the outer
 * layer: `npm start` (app.ts), the `lilo` CLI (admin-cli/context.ts) and
 * `npm run config:example` pass them to loadConfig / renderEnvExample. Light
 * on purpose (no SDK): the CLI loads it for every command that opens Lilo.
 */
export const ADAPTER_SECTIONS = [TELEGRAM_SECTION, MATRIX_SECTION, WEB_SECTION] as const;

/** A configuration loaded with the adapters' sections: `config.telegram`, `config.matrix`, `config.web`. */
export type AppConfig = LiloConfig & SectionValues<typeof ADAPTER_SECTIONS>;

/** The chat adapters whose configuration is present, by their contact name (`lilo status` expects a contact from each). */
export function configuredAdapters(config: LiloConfig): string[] {
  const names: string[] = [];
  if (telegramConfig(config).token) names.push("telegram");
  if (matrixConfig(config).homeserverUrl) names.push("matrix");
  return names;
}
