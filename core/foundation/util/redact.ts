/**
 * The one redaction every text passes before it can reach a log line, a chat
 * message or the CLI's error output: credentials in URLs, bearer tokens, API
 * keys, the Telegram bot token inside Bot API URLs, Matrix access tokens —
 * by their shape, and every configured secret by its value.
 */

/**
 * What a secret becomes. Chat messages are rendered from Markdown, where
 * "***" could open emphasis; the renderer (adapters/shared/format.ts) shows a
 * run of three or more asterisks as it is, so a mask in an error reason stays
 * literal. Keep the two in step when changing it.
 */
const MASK = "***";

/** Shapes of secrets, each with its replacement (groups keep the harmless part). */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // scheme://user:password@host → scheme://***@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@?#]+@/gi, `$1${MASK}@`],
  // Bot API URLs carry the token in the path: /bot123456:AAH…/sendMessage
  [/\/bot\d+:[A-Za-z0-9_-]+/g, `/bot${MASK}`],
  // A Telegram bot token on its own.
  [/\b\d{6,}:[A-Za-z0-9_-]{30,}\b/g, MASK],
  // Authorization header values.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi, `$1 ${MASK}`],
  // Vendor API keys (OpenAI, Anthropic, OpenRouter, DeepSeek: sk-…; Matrix/Synapse access tokens: syt_…).
  [/\bsk-[A-Za-z0-9_-]{6,}/g, `sk-${MASK}`],
  [/\bsyt_[A-Za-z0-9_-]{6,}/g, `syt_${MASK}`],
  // key=value and "key": "value" forms in query strings, headers and JSON.
  [/\b(api[_-]?key|access[_-]?token|x-api-key|password|passwd|secret)(["']?\s*[=:]\s*["']?)(?!\*\*\*)[^\s"'&,;}]+/gi, `$1$2${MASK}`],
];

/** Configured secret values (API keys, bot tokens, URL passwords), masked wherever they appear. */
const known = new Set<string>();

/** Short values would mask ordinary words; real secrets are longer. */
const MIN_SECRET_LENGTH = 8;

/**
 * Registers configured secrets so every later redaction masks them by value
 * too (createLilo calls this with the keys and tokens of its config). Secrets
 * are process-wide like the environment they come from.
 */
export function registerSecrets(values: ReadonlyArray<string | undefined>): void {
  for (const v of values) if (v && v.length >= MIN_SECRET_LENGTH) known.add(v);
}

/** The text with every secret masked as "***": registered values, `extra` values and every known shape. */
export function redactSecrets(text: string, extra: ReadonlyArray<string | undefined> = []): string {
  let out = text;
  for (const s of [...extra, ...known]) if (s && out.includes(s)) out = out.split(s).join(MASK);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Query parameters that carry a credential (`?key=…`, `?access_token=…`). */
const SECRET_PARAM = /key|token|secret|password|passwd|sig/i;

/** The secrets inside a URL: its password and, when there is one, its user name; values of key or token parameters. */
export function urlSecrets(raw: string | undefined): string[] {
  if (!raw || !URL.canParse(raw)) return [];
  const u = new URL(raw);
  const params = [...u.searchParams].filter(([name]) => SECRET_PARAM.test(name)).map(([, value]) => value);
  return [u.password, u.password && u.username]
    .map((s) => (s ? decodeURIComponent(s) : ""))
    .concat(params)
    .filter(Boolean);
}
