import { z } from "zod";

/**
 * The flat environment variables, validated with zod. `loadConfig` in
 * config.ts turns them into the nested LiloConfig; every default number of
 * the specification lives here.
 */

const num = (def: number) => z.coerce.number().finite().default(def);
const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
/** For values where 0 would break every call (a timeout, a token budget, a pause). */
const positive = (def: number) => z.coerce.number().finite().positive().default(def);
const positiveInt = (def: number) => z.coerce.number().int().positive().default(def);
const bool = (def: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
    .default(def ? "true" : "false")
    .transform((v) => ["true", "1", "yes", "on"].includes(v));
const opt = z.string().trim().min(1).optional();
const url = z.url().optional();
/** A croner pattern in the local time zone; fully checked when the job is scheduled. */
const cronPattern = (def: string) =>
  z
    .string()
    .trim()
    .refine((c) => [5, 6].includes(c.split(/\s+/).length), "a cron pattern of 5 or 6 fields, e.g. 0 9 * * * (daily 09:00)")
    .default(def);
const score = (def: number) => z.coerce.number().min(-1).max(1).default(def);

/** Providers reached through the OpenAI-compatible client; a new vendor is one entry here. */
export const OPENAI_COMPATIBLE_VENDORS = {
  openai: { keyVar: "OPENAI_API_KEY", urlVar: "OPENAI_BASE_URL", defaultUrl: undefined, defaultModel: "gpt-4o-mini" },
  deepseek: { keyVar: "DEEPSEEK_API_KEY", urlVar: "DEEPSEEK_BASE_URL", defaultUrl: "https://api.deepseek.com", defaultModel: "deepseek-chat" },
  openrouter: { keyVar: "OPENROUTER_API_KEY", urlVar: "OPENROUTER_BASE_URL", defaultUrl: "https://openrouter.ai/api/v1", defaultModel: undefined },
  ollama: { keyVar: "OLLAMA_API_KEY", urlVar: "OLLAMA_BASE_URL", defaultUrl: undefined, defaultModel: undefined },
} as const;
export type OpenAICompatibleVendor = keyof typeof OPENAI_COMPATIBLE_VENDORS;

/**
 * The default embedding model per persona language: German needs a model
 * that understands German (≈ 118 MB quantised), English gets MiniLM (≈ 23 MB).
 * LILO_EMBEDDING_MODEL overrides. Thresholds per model: core/memory/thresholds.ts.
 */
export const DEFAULT_EMBEDDING_MODELS = {
  de: "Xenova/paraphrase-multilingual-MiniLM-L12-v2",
  en: "Xenova/all-MiniLM-L6-v2",
} as const;

/** Every variable Lilo reads, with the specification's numbers as defaults. */
export const envSchema = z.object({
  // persona and place
  LILO_NAME: z.string().trim().min(1).default("Lilo"),
  LILO_LANGUAGE: z.enum(["de", "en"]).default("de"),
  LILO_TIMEZONE: z
    .string()
    .default("Europe/Berlin")
    .refine((tz) => isTimeZone(tz), "not a known IANA time zone"),
  LILO_USER_NAMES: z.string().default(""),
  LILO_DATA_DIR: z.string().default("data"),
  LILO_DB_PATH: opt,
  // models
  LILO_CHAT_MODEL: opt,
  LILO_EXTRACTION_MODEL: opt,
  LILO_JUDGE_MODEL: opt,
  LILO_REFLECTION_MODEL: opt,
  LILO_DIARY_MODEL: opt,
  LILO_ANALYSIS_MODEL: opt,
  LILO_MODEL_TIMEOUT_MS: positiveInt(60_000),
  LILO_MODEL_MAX_RETRIES: int(3),
  LILO_MODEL_MAX_TOKENS: positiveInt(2_048),
  ANTHROPIC_API_KEY: opt,
  ANTHROPIC_BASE_URL: url,
  OPENAI_API_KEY: opt,
  OPENAI_BASE_URL: url,
  DEEPSEEK_API_KEY: opt,
  DEEPSEEK_BASE_URL: url,
  OPENROUTER_API_KEY: opt,
  OPENROUTER_BASE_URL: url,
  OLLAMA_API_KEY: opt,
  OLLAMA_BASE_URL: url,
  // embeddings and vectors
  LILO_EMBEDDING_MODEL: opt,
  LILO_EMBEDDING_MODEL_DIR: opt,
  LILO_EMBEDDING_OFFLINE: bool(false),
  LILO_VECTOR_BACKEND: z.enum(["embedded", "sqlite-vec", "qdrant"]).optional(),
  LILO_VECTOR_GRAPH_MIN_SIZE: int(2_000_000),
  QDRANT_URL: url,
  QDRANT_API_KEY: opt,
  QDRANT_COLLECTION: z.string().trim().min(1).default("lilo"),
  // memory
  LILO_NOTES_TOP_K: int(5),
  LILO_NOTES_MIN_SCORE: score(Number.NaN).optional(),
  LILO_DEDUP_MIN_SCORE: score(Number.NaN).optional(),
  LILO_THOUGHTS_TOP_K: int(3),
  LILO_THOUGHTS_MIN_SCORE: score(0.3),
  LILO_RECENT_MESSAGES: int(12),
  LILO_CONVERSATION_PAUSE_MINUTES: positive(60),
  LILO_PROFILE_MAX_CHARS: int(4_000),
  // budgets for what goes to the chat model (one huge message must not break later turns)
  LILO_MAX_INPUT_CHARS: z.coerce.number().int().min(500).default(12_000),
  LILO_HISTORY_MESSAGE_CHARS: z.coerce.number().int().min(200).default(4_000),
  LILO_REQUEST_BUDGET_TOKENS: z.coerce.number().int().min(1_000).default(24_000),
  // the whole memory part of the cheat sheet, estimated tokens (3 characters each, see request-budget.ts)
  LILO_MEMORY_BUDGET_TOKENS: int(2_000),
  LILO_IMPORTANT_MAX_CHARS: int(1_500),
  LILO_PASSAGES_MAX_CHARS: int(1_800),
  LILO_PASSAGES_TOP_K: int(3),
  // nothing lost: a message stored while Lilo was down is answered on start unless older than this (then only acknowledged)
  LILO_INBOX_MAX_AGE_MINUTES: positive(720),
  LILO_JOB_MAX_ATTEMPTS: positiveInt(3),
  LILO_FOLLOWUP_DUE_DAYS: num(14),
  // addressed-check (SPEC §9): meaningful words of a topic that must recur in Lilo's answer
  LILO_FOLLOWUP_ADDRESSED_WORDS: positiveInt(1),
  LILO_CONCERN_ADDRESSED_WORDS: positiveInt(2),
  LILO_QUESTION_TTL_MINUTES: num(60),
  LILO_ANSWER_WORDS: int(4),
  // recall (SPEC §5.1)
  LILO_RECALL_MAX_PASSAGES: positiveInt(8),
  LILO_DIARY_RECALL_TOP_K: positiveInt(3),
  // corrections (SPEC §6)
  LILO_CORRECTION_CANDIDATES_K: int(5),
  LILO_CORRECTION_MIN_SCORE: score(0.3),
  LILO_QUIET_HOURS: z.string().default(""),
  // diary (SPEC §8)
  LILO_DIARY_ENABLED: bool(true),
  LILO_DIARY_TIME: z.string().trim().regex(/^([01]?\d|2[0-3]):[0-5]\d$/, "use HH:MM, e.g. 23:45").default("23:45"),
  LILO_DIARY_PING: bool(true),
  LILO_DIARY_WINDOW_HOURS: num(24),
  LILO_DIARY_MAX_EXCHANGES: int(40),
  LILO_DIARY_USER_CHARS: int(400),
  LILO_DIARY_LILO_CHARS: int(600),
  LILO_DIARY_THOUGHTS: int(3),
  LILO_DIARY_LAST_ENTRIES: int(3),
  // reflection and concerns (SPEC §9)
  LILO_REFLECTION_ENABLED: bool(true),
  LILO_REFLECTION_CRON: z
    .string()
    .trim()
    .refine((c) => [5, 6].includes(c.split(/\s+/).length), "a cron pattern of 5 or 6 fields, e.g. 0 22 * * * (daily 22:00) or 0 * * * * (hourly)")
    .default("0 22 * * *"),
  LILO_REFLECTION_EXCHANGES: int(12),
  LILO_REFLECTION_USER_CHARS: int(200),
  LILO_REFLECTION_LILO_CHARS: int(300),
  LILO_REFLECTION_NOTES: int(4),
  LILO_REFLECTION_RELATED_THOUGHTS: int(3),
  LILO_REFLECTION_LAST_THOUGHTS: int(3),
  LILO_CONCERN_MIN_HOURS: num(20),
  LILO_CONCERN_DUPLICATE_SHARE: z.coerce.number().min(0).max(1).default(0.6),
  LILO_CONCERN_PING: bool(true),
  // greetings (SPEC §9): the pushed greeting is off by default (see README, "Follow-up topics and greetings")
  LILO_GREETING_ENABLED: bool(false),
  // the running bot delivers pushes other processes (the CLI) wrote to the outbox, polling this often
  LILO_PUSH_OUTBOX_POLL_MS: positiveInt(1500),
  LILO_GREETING_CRON: cronPattern("0 9 * * *"),
  LILO_GREETING_MIN_HOURS: positive(20),
  LILO_GREETING_MESSAGES: positiveInt(6),
  // live settings (`lilo settings set`): how often the running bot looks for changes made by another process
  LILO_SETTINGS_POLL_SECONDS: positive(5),
  // outside view — analysis (SPEC §10)
  LILO_ANALYSIS_CHUNK_CHARS: positiveInt(150_000),
  LILO_ANALYSIS_MAX_MESSAGE_CHARS: positiveInt(4_000),
  LILO_ANALYSIS_MAX_TOKENS: positiveInt(16_000),
  LILO_ANALYSIS_RETRY_TOKENS: z
    .string()
    .trim()
    .regex(/^\d+(\s*,\s*\d+)*$/, "comma-separated token limits, e.g. 32000,64000")
    .default("32000,64000")
    .transform((s) => s.split(",").map((n) => Number(n.trim()))),
  LILO_ANALYSIS_MAX_RETRIES: int(4),
  LILO_ANALYSIS_DIR: opt,
  // looking things up (web search, reading a page, news feeds, native tools)
  LILO_SEARCH_PROVIDER: z.enum(["searxng", "brave"]).optional(),
  SEARXNG_URL: url,
  BRAVE_SEARCH_API_KEY: opt,
  BRAVE_SEARCH_URL: url,
  LILO_SEARCH_RESULTS: z.coerce.number().int().min(1).max(20).default(5),
  LILO_SEARCH_TIMEOUT_MS: positiveInt(10_000),
  LILO_FETCH_URL_ENABLED: bool(true),
  LILO_FETCH_MAX_BYTES: positiveInt(2_000_000),
  LILO_FETCH_TIMEOUT_MS: positiveInt(10_000),
  LILO_FETCH_MAX_CHARS: z.coerce.number().int().min(200).default(4_000),
  /** Test setting: lets fetch_url reach 127.0.0.1/::1 (the fake servers); never set it in production. */
  LILO_FETCH_ALLOW_LOOPBACK: bool(false),
  LILO_FEEDS: z.string().default(""),
  LILO_FEEDS_CRON: cronPattern("*/30 * * * *"),
  LILO_FEEDS_RETENTION_DAYS: positive(30),
  LILO_NEWS_RESULTS: z.coerce.number().int().min(1).max(20).default(5),
  LILO_REFLECTION_NEWS: bool(false),
  LILO_REFLECTION_NEWS_ITEMS: positiveInt(5),
  LILO_NATIVE_TOOLS: z.string().default("auto"),
  LILO_TOOL_ROUNDS: z.coerce.number().int().min(1).max(10).default(3),
  // media (photos, voice notes)
  LILO_VISION: z.string().default("anthropic,openai,openrouter"),
  LILO_MAX_IMAGE_BYTES: positiveInt(5_000_000),
  LILO_MAX_AUDIO_BYTES: positiveInt(20_000_000),
  LILO_TRANSCRIBE_BASE_URL: url,
  LILO_TRANSCRIBE_MODEL: z.string().trim().min(1).default("whisper-1"),
  LILO_TRANSCRIBE_API_KEY: opt,
  LILO_TRANSCRIBE_TIMEOUT_MS: positiveInt(60_000),
  // adapters
  TELEGRAM_BOT_TOKEN: opt,
  TELEGRAM_ALLOWED_USERS: z.string().default(""),
  TELEGRAM_WEBHOOK_URL: url,
  TELEGRAM_WEBHOOK_PORT: int(8080),
  TELEGRAM_API_ROOT: url,
  MATRIX_HOMESERVER_URL: url,
  MATRIX_ACCESS_TOKEN: opt,
  MATRIX_ALLOWED_USERS: z.string().default(""),
  MATRIX_MAX_MESSAGE_CHARS: z.coerce.number().int().min(100).max(60_000).default(16_000),
  LILO_TERMINAL_USER: z.string().trim().min(1).default("owner"),
});

/** Is this a time zone the runtime knows (IANA name)? */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
