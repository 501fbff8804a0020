import { redactSecrets } from "../util/redact.ts";

/** Where Lilo writes what happened. Never pass secrets or whole prompts to it. */
export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/** Discards everything; the default inside tests and library use. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * One line per event on stderr, so stdout stays free for the terminal chat and --json output;
 * `write` sends the lines elsewhere (the terminal chat's log file).
 */
export function consoleLogger(
  level: "debug" | "info" | "warn" | "error" = "info",
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const order = ["debug", "info", "warn", "error"] as const;
  const min = order.indexOf(level);
  const at = (lvl: (typeof order)[number]) => (msg: string, data?: Record<string, unknown>) => {
    if (order.indexOf(lvl) < min) return;
    const extra = data ? ` ${JSON.stringify(data)}` : "";
    // Whatever a caller passed, no secret leaves through the log.
    write(`${new Date().toISOString()} ${lvl.padEnd(5)} ${redactSecrets(`${msg}${extra}`)}\n`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
