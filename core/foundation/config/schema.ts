import { z } from "zod";
import { localSettings } from "./local-settings.ts";
import { runSettings } from "./service-settings.ts";
import { embeddingSettings, vectorSettings } from "./index-settings.ts";
import { memorySettings, inboxSettings, topicsSettings, questionsSettings } from "./memory-settings.ts";
import { diarySettings, reflectionSettings, greetingSettings, pushSettings } from "./background-settings.ts";
import { mediaSettings } from "./media-settings.ts";
import { costSettings } from "./cost-settings.ts";
import { lookupSettings } from "./lookup-settings.ts";
import { int, isTimeZone, opt, positive, positiveInt, score, setting as s, url } from "./rules.ts";

/**
 * The configuration table: one nested zod schema whose leaves carry their
 * environment variable, default, description and flags (rules.ts). Its
 * output, plus the values derived from it in config.ts, is `LiloConfig`;
 * `.env.example` and `lilo settings` are generated from it. Every default
 * number of the specification lives here and nowhere else; the chat
 * adapters bring their own variables as sections (config/section.ts).
 */

/** Every variable Lilo reads, nested as in `LiloConfig`. */
export const rawConfigSchema = z.object({
  providers: z.object({
    anthropic: z.object({
      apiKey: s(opt(), { env: "ANTHROPIC_API_KEY", doc: "Claude", group: "model-keys", example: "sk-ant-...", secret: true }),
      baseUrl: s(url(), { env: "ANTHROPIC_BASE_URL", doc: "a proxy or self-hosted gateway", group: "model-keys" }),
    }),
    openai: z.object({
      apiKey: s(opt(), { env: "OPENAI_API_KEY", doc: "OpenAI", group: "model-keys", example: "sk-...", secret: true }),
      baseUrl: s(url(), {
        env: "OPENAI_BASE_URL",
        doc: "with LILO_CHAT_MODEL=openai:llama3.1: any OpenAI-compatible server (Ollama, llama.cpp server, LM Studio, vLLM), no key needed",
        group: "model-keys",
        example: "http://127.0.0.1:11434/v1",
      }),
    }),
    deepseek: z.object({
      apiKey: s(opt(), { env: "DEEPSEEK_API_KEY", doc: "DeepSeek", group: "model-keys", example: "sk-...", secret: true }),
      baseUrl: s(url(), { env: "DEEPSEEK_BASE_URL", doc: "default https://api.deepseek.com", group: "model-keys" }),
    }),
    openrouter: z.object({
      apiKey: s(opt(), { env: "OPENROUTER_API_KEY", doc: "OpenRouter", group: "model-keys", example: "sk-or-...", secret: true }),
      baseUrl: s(url(), { env: "OPENROUTER_BASE_URL", doc: "default https://openrouter.ai/api/v1", group: "model-keys" }),
    }),
    ollama: z.object({
      apiKey: s(opt(), { env: "OLLAMA_API_KEY", doc: "only when the server asks for one", group: "model-keys", secret: true }),
      baseUrl: s(url(), { env: "OLLAMA_BASE_URL", doc: "then LILO_CHAT_MODEL=ollama:llama3.1", group: "model-keys", example: "http://127.0.0.1:11434/v1" }),
    }),
  }),
  models: z.object({
    chat: s(opt(), {
      env: "LILO_CHAT_MODEL",
      doc: "default: the first configured provider's default model",
      group: "models",
      example: "anthropic:claude-sonnet-4-5",
    }),
    extraction: s(opt(), { env: "LILO_EXTRACTION_MODEL", doc: "e.g. deepseek:deepseek-chat", group: "models" }),
    judge: s(opt(), { env: "LILO_JUDGE_MODEL", doc: "corrections and learned rules", group: "models" }),
    reflection: s(opt(), { env: "LILO_REFLECTION_MODEL", doc: "reflection and concerns", group: "models" }),
    diary: s(opt(), { env: "LILO_DIARY_MODEL", doc: "the nightly diary", group: "models" }),
    analysis: s(opt(), { env: "LILO_ANALYSIS_MODEL", doc: "`lilo analysis`", group: "models" }),
  }),
  modelCall: z.object({
    timeoutMs: s(positiveInt(60_000), { env: "LILO_MODEL_TIMEOUT_MS", doc: "per model call", group: "models" }),
    maxRetries: s(int(3), { env: "LILO_MODEL_MAX_RETRIES", doc: "by the provider's SDK on 429, 5xx, timeouts and connection errors", group: "models" }),
    maxTokens: s(positiveInt(2_048), { env: "LILO_MODEL_MAX_TOKENS", doc: "output limit of a chat answer", group: "models" }),
    streaming: s(z.enum(["auto", "off"]).default("auto"), {
      env: "LILO_STREAMING",
      doc: "auto shows answers as they are written (Telegram drafts or edits, Matrix edits, the terminal); off sends each answer whole",
      group: "models",
      live: "streaming",
    }),
  }),
  persona: z.object({
    name: s(z.string().trim().min(1).default("Lilo"), { env: "LILO_NAME", doc: "her name", group: "persona" }),
    language: s(z.enum(["de", "en"]).default("de"), { env: "LILO_LANGUAGE", doc: "de or en", group: "persona" }),
    userNames: s(z.string().default(""), {
      env: "LILO_USER_NAMES",
      doc: "Lilo user id = the name she calls you by",
      group: "persona",
      example: "owner=Christian,anna=Anna",
    }),
  }),
  timezone: s(
    z
      .string()
      .default("Europe/Berlin")
      .refine((tz) => isTimeZone(tz), "not a known IANA time zone"),
    { env: "LILO_TIMEZONE", doc: "IANA name; schedules and quiet hours are local time", group: "persona", listed: "timezone" },
  ),
  home: s(opt(), {
    env: "LILO_HOME",
    doc: "Lilo's home: .env and relative paths (LILO_DATA_DIR, …) are read from here, whatever the current directory; default the install folder; set only in the real environment",
    group: "data",
    example: "/srv/lilo",
  }),
  dataDir: s(z.string().default("data"), { env: "LILO_DATA_DIR", doc: "the database, models, analyses, backups; relative to LILO_HOME", group: "data" }),
  dbPath: s(opt(), { env: "LILO_DB_PATH", doc: "default: $LILO_DATA_DIR/lilo.db", group: "data", example: "data/lilo.db" }),
  dataKey: s(opt(), {
    env: "LILO_DATA_KEY",
    doc: "the key that encrypts the database, its backups and exports (64 hex digits from `lilo setup`, or a passphrase); losing it loses the memory; unset: an unencrypted database",
    group: "data",
    secret: true,
  }),
  dataKeyFile: s(opt(), {
    env: "LILO_DATA_KEY_FILE",
    doc: "instead of LILO_DATA_KEY: a file holding the key, outside the data folder (a systemd credential, a mounted secret)",
    group: "data",
    example: "/run/credentials/lilo.service/data-key",
  }),
  run: runSettings,
  embedding: embeddingSettings,
  local: localSettings,
  vector: vectorSettings,
  memory: memorySettings,
  inbox: inboxSettings,
  topics: topicsSettings,
  questions: questionsSettings,
  budget: z.object({
    maxInputChars: s(z.coerce.number().int().min(500).default(12_000), {
      env: "LILO_MAX_INPUT_CHARS",
      doc: "a longer message is stored whole, read shortened with a note; the user is told",
      group: "budgets",
    }),
    historyMessageChars: s(z.coerce.number().int().min(200).default(4_000), {
      env: "LILO_HISTORY_MESSAGE_CHARS",
      doc: "each earlier message replayed on the sheet is shortened to this",
      group: "budgets",
    }),
    requestTokens: s(z.coerce.number().int().min(1_000).default(24_000), {
      env: "LILO_REQUEST_BUDGET_TOKENS",
      doc: "estimated tokens, 3 characters each, of the whole request; oldest turns go first",
      group: "budgets",
    }),
  }),
  costs: costSettings,
  recall: z.object({
    maxPassages: s(positiveInt(8), {
      env: "LILO_RECALL_MAX_PASSAGES",
      doc: "[RECALL:] passages from the chat log, each with the message before and after",
      group: "recall",
    }),
    diaryTopK: s(positiveInt(3), { env: "LILO_DIARY_RECALL_TOP_K", doc: "[DIARY:] entries found by meaning", group: "recall" }),
  }),
  corrections: z.object({
    candidatesPerText: s(int(5), {
      env: "LILO_CORRECTION_CANDIDATES_K",
      doc: "notes and profile entries per text: the message and Lilo's previous answer",
      group: "corrections",
    }),
    candidateMinScore: s(score(0.3), { env: "LILO_CORRECTION_MIN_SCORE", doc: "keep it low: real corrections and misses score alike", group: "corrections" }),
  }),
  live: z.object({
    pollSeconds: s(positive(5), {
      env: "LILO_SETTINGS_POLL_SECONDS",
      doc: "how often the running bot picks up a change made with `lilo settings set`",
      group: "live",
    }),
  }),
  diary: diarySettings,
  reflection: reflectionSettings,
  greeting: greetingSettings,
  push: pushSettings,
  analysis: z.object({
    chunkChars: s(positiveInt(150_000), { env: "LILO_ANALYSIS_CHUNK_CHARS", doc: "characters per part, ≈ 43,000 tokens", group: "analysis" }),
    maxMessageChars: s(positiveInt(4_000), { env: "LILO_ANALYSIS_MAX_MESSAGE_CHARS", doc: "longer messages are cut with a note", group: "analysis" }),
    maxTokens: s(positiveInt(16_000), { env: "LILO_ANALYSIS_MAX_TOKENS", doc: "output limit of each call", group: "analysis" }),
    retryTokens: s(
      z
        .string()
        .trim()
        .regex(/^\d+(\s*,\s*\d+)*$/, "comma-separated token limits, e.g. 32000,64000")
        .default("32000,64000")
        .transform((t) => t.split(",").map((n) => Number(n.trim()))),
      { env: "LILO_ANALYSIS_RETRY_TOKENS", doc: "larger limits after an empty answer, in order", group: "analysis" },
    ),
    maxRetries: s(int(4), { env: "LILO_ANALYSIS_MAX_RETRIES", doc: "waits and retries on overload or a broken connection", group: "analysis" }),
    dir: s(opt(), {
      env: "LILO_ANALYSIS_DIR",
      doc: "where an earlier Lilo kept saved analyses as files; they are moved into the database and removed at the next start or `lilo encrypt`; default $LILO_DATA_DIR/analyses",
      group: "analysis",
      example: "data/analyses",
    }),
  }),
  lookup: lookupSettings,
  media: mediaSettings,
  terminal: z.object({
    userId: s(z.string().trim().min(1).default("owner"), { env: "LILO_TERMINAL_USER", doc: "the Lilo user id of the terminal chat", group: "terminal" }),
  }),
});

/** The table's output before derived values (providers, model specs, user names, …) are added. */
export type RawConfig = z.output<typeof rawConfigSchema>;
