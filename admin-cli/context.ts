import type { Lilo, LiloPorts } from "../core/index.ts";

/**
 * How the CLI gets its Lilo; tests replace it to pass ports in. It may be
 * async so the core (and its SDKs) loads only when a command needs it.
 */
export type LiloOpener = () => Lilo | Promise<Lilo>;

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

/** Opens Lilo from `.env` and the environment, logging warnings to stderr. */
export const openFromEnv =
  (ports: LiloPorts = {}): LiloOpener =>
  async () => {
    // Loaded here, not at the top: `lilo --help` and argument errors must not pay for the whole core.
    const [{ consoleLogger, createLilo, loadConfigFromEnv }, { ADAPTER_SECTIONS }] = await Promise.all([
      import("../core/index.ts"),
      import("../adapters/config.ts"),
    ]);
    // With the adapters' sections, so `lilo settings` lists their variables and their secrets stay masked.
    return createLilo(loadConfigFromEnv(process.env, ADAPTER_SECTIONS), { logger: consoleLogger("warn"), ...ports });
  };
