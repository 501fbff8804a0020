import { existsSync } from "node:fs";
import type { Lilo, LiloPorts } from "../core/index.ts";

/** What a command asks of the opener. */
export interface OpenOptions {
  /**
   * The command may create Lilo's database (import, restore). Every other
   * command refuses when there is none, naming the folder it looked in,
   * instead of leaving an empty database behind as a side effect.
   */
  create?: boolean;
}

/**
 * How the CLI gets its Lilo; tests replace it to pass ports in. It may be
 * async so the core (and its SDKs) loads only when a command needs it.
 */
export type LiloOpener = (opts?: OpenOptions) => Lilo | Promise<Lilo>;

/** Where commands write; tests capture it. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Output stream for the progress bar (a TTY shows a live bar). */
  progressStream: NodeJS.WritableStream;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  progressStream: process.stderr,
};

/** Opens Lilo from its home's `.env` and the environment, logging warnings to stderr. */
export const openFromEnv =
  (ports: LiloPorts = {}): LiloOpener =>
  async (opts = {}) => {
    // Loaded here, not at the top: `lilo --help` and argument errors must not pay for the whole core.
    const [{ consoleLogger, createLilo, loadConfigFromEnv, ConfigError }, { installDir }, { ADAPTER_SECTIONS }, { localModelsWithBar }] = await Promise.all([
      import("../core/index.ts"),
      import("../core/internal.ts"),
      import("../adapters/config.ts"),
      import("./download-bar.ts"),
    ]);
    // With the adapters' sections, so `lilo settings` lists their variables and their secrets stay masked.
    const config = loadConfigFromEnv(process.env, ADAPTER_SECTIONS, installDir(import.meta.url));
    if (!opts.create && !existsSync(config.dbPath)) {
      // After `lilo setup` only the first start is missing; before it, the setup too.
      const next =
        config.run.envFile && existsSync(config.run.envFile)
          ? "Start Lilo once (`npm start` in her folder)"
          : "Run `npx lilo setup` and `npm start` in Lilo's folder first";
      throw new ConfigError(
        `Lilo has no data in ${config.dataDir} (looked for ${config.dbPath}; home ${config.home ?? process.cwd()}). ` +
          `${next}, or set LILO_HOME to the folder that holds her .env and data/.`,
      );
    }
    const logger = consoleLogger("warn");
    return createLilo(config, { logger, ...localModelsWithBar(config, logger), ...ports });
  };
