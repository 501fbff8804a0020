import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { makePrivate } from "../../core/internal.ts";
import type { EnvLines } from "./model-choices.ts";

/** The order the setup writes its variables in, so both ways of running it write the same file. */
const ORDER = [
  "LILO_LANGUAGE",
  "LILO_USER_NAMES",
  "LILO_TIMEZONE",
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "DEEPSEEK_API_KEY",
  "ANTHROPIC_BASE_URL",
  "OPENAI_BASE_URL",
  "DEEPSEEK_BASE_URL",
  "LILO_CHAT_MODEL",
  "TELEGRAM_BOT_TOKEN",
  "TELEGRAM_ALLOWED_USERS",
  "MATRIX_HOMESERVER_URL",
  "MATRIX_ACCESS_TOKEN",
  "MATRIX_ALLOWED_USERS",
];

/** A value as dotenv reads it back: bare when safe, else double-quoted. */
function quote(value: string): string {
  return /^[\w@.:/+=,~-]*$/.test(value) ? value : JSON.stringify(value);
}

/** The lines in the setup's order (variables it does not know come last, sorted). */
export function orderedLines(lines: EnvLines): string[] {
  const rank = (k: string) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length);
  return Object.keys(lines)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((k) => `${k}=${quote(lines[k]!)}`);
}

/**
 * Writes the setup's answers to `.env`, readable by the owner only (0600):
 * an existing file keeps its other lines and comments; a line the setup
 * answers is replaced in place, new ones are added at the end. Written to a
 * temporary file first, so a crash never leaves half a `.env`.
 */
export function writeEnvFile(path: string, lines: EnvLines): void {
  const ours = new Map(orderedLines(lines).map((l) => [l.slice(0, l.indexOf("=")), l]));
  const kept: string[] = [];
  if (existsSync(path)) {
    for (const line of readFileSync(path, "utf8").split("\n")) {
      const key = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
      if (key && ours.has(key)) {
        kept.push(ours.get(key)!);
        ours.delete(key);
      } else kept.push(line);
    }
    while (kept.length && kept[kept.length - 1] === "") kept.pop();
  }
  const text = [...kept, ...ours.values()].join("\n") + "\n";
  const tmp = `${path}.setup-${process.pid}`;
  writeFileSync(tmp, text, { mode: 0o600 });
  makePrivate(tmp);
  renameSync(tmp, path);
}
