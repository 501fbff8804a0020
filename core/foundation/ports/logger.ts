import { redactSecrets } from "../util/redact.ts";

/**
 * Where Lilo writes what happened. Never pass secrets, message text or
 * memory text to it: ids, counts and sizes only, at every level.
 */
export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/** Discards everything; the default inside tests and library use. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The shape of a log line: readable text, or one JSON object (journald, container logs, log shippers). */
export type LogFormat = "text" | "json";

const ORDER = ["debug", "info", "warn", "error"] as const;
type Level = (typeof ORDER)[number];

/** The keys every JSON line starts with; a data field of the same name is written as `data.<key>`. */
const RESERVED = new Set(["time", "level", "event"]);

/**
 * One line per event on stderr, so stdout stays free for the terminal chat and --json output;
 * `write` sends the lines elsewhere (the log file as well). With "json" each line is
 * `{"time","level","event",...data}`.
 */
export function consoleLogger(level: Level = "info", write: (line: string) => void = (line) => process.stderr.write(line), format: LogFormat = "text"): Logger {
  const min = ORDER.indexOf(level);
  const at = (lvl: Level) => (msg: string, data?: Record<string, unknown>) => {
    if (ORDER.indexOf(lvl) < min) return;
    write(format === "json" ? jsonLine(lvl, msg, data) : textLine(lvl, msg, data));
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

function textLine(lvl: Level, msg: string, data: Record<string, unknown> | undefined): string {
  const extra = data ? ` ${JSON.stringify(data)}` : "";
  // Whatever a caller passed, no secret leaves through the log.
  return `${new Date().toISOString()} ${lvl.padEnd(5)} ${redactSecrets(`${msg}${extra}`)}\n`;
}

function jsonLine(lvl: Level, msg: string, data: Record<string, unknown> | undefined): string {
  const line: Record<string, unknown> = { time: new Date().toISOString(), level: lvl, event: msg };
  for (const [k, v] of Object.entries(data ?? {})) line[RESERVED.has(k) ? `data.${k}` : k] = v;
  // Redacted value by value, so a masked secret can never break the line's JSON.
  return `${JSON.stringify(line, (_k, v: unknown) => (typeof v === "string" ? redactSecrets(v) : v))}\n`;
}
