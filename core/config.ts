import type { z } from "zod";
import { DEFAULT_EMBEDDING_MODELS, OPENAI_COMPATIBLE_VENDORS, envSchema } from "./config-env.ts";
import { ConfigError } from "./errors.ts";
import { parseQuietHours, type QuietHours } from "./push/quiet-hours.ts";
import { lookupConfig, type LookupConfig } from "./lookup-config.ts";
import { mediaConfig, type MediaConfig } from "./media-config.ts";

export type { LookupConfig, ToolMode } from "./lookup-config.ts";

export { DEFAULT_EMBEDDING_MODELS, OPENAI_COMPATIBLE_VENDORS, type OpenAICompatibleVendor } from "./config-env.ts";

/**
 * Lilo's whole configuration, parsed once from environment-style variables.
 * Every number of the specification is a default in config-env.ts and nowhere else.
 * The core never reads process.env: callers pass the variables in.
 */

export type Env = Record<string, string | undefined>;

export type ModelRole = "chat" | "extraction" | "judge" | "reflection" | "diary" | "analysis";
export const MODEL_ROLES: readonly ModelRole[] = ["chat", "extraction", "judge", "reflection", "diary", "analysis"];

/** Which provider and model answers for one role. */
export interface ModelSpec {
  provider: string;
  model: string;
}

/** How to reach one provider. Keys live only in this object in memory, never in storage or logs. */
export interface ProviderSettings {
  kind: "anthropic" | "openai-compatible";
  apiKey: string | undefined;
  baseUrl: string | undefined;
  defaultModel: string | undefined;
}

export interface LiloConfig {
  persona: { name: string; language: "de" | "en"; userNames: Record<string, string> };
  timezone: string;
  dataDir: string;
  dbPath: string;
  models: Partial<Record<ModelRole, ModelSpec>>;
  providers: Record<string, ProviderSettings>;
  modelCall: { timeoutMs: number; maxRetries: number; maxTokens: number };
  embedding: { model: string; localDir: string; offline: boolean };
  vector: {
    backend: "embedded" | "sqlite-vec" | "qdrant";
    qdrantUrl?: string;
    qdrantApiKey?: string;
    collection: string;
    /** Embedded index: a (user, store) with this many vectors is searched through an HNSW graph instead of an exact scan. */
    graphMinSize: number;
  };
  memory: {
    notesTopK: number;
    /** Explicit overrides; otherwise the embedder's own thresholds (core/memory/thresholds.ts). */
    notesMinScore: number | undefined;
    dedupMinScore: number | undefined;
    thoughtsTopK: number;
    thoughtsMinScore: number;
    recentMessages: number;
    conversationPauseMinutes: number;
    profileMaxChars: number;
    /** The whole memory part of the sheet (profile, important, notes, passages, thoughts), estimated tokens. */
    memoryBudgetTokens: number;
    importantMaxChars: number;
    passagesMaxChars: number;
    passagesTopK: number;
  };
  /** Caps for the chat model's request: incoming message, each replayed message, the whole request in estimated tokens. */
  budget: { maxInputChars: number; historyMessageChars: number; requestTokens: number };
  /** Stored messages answered on start up to this age (older ones are only acknowledged); tries per after-reply job. */
  inbox: { maxAgeMinutes: number; jobMaxAttempts: number };
  /** Follow-up topics: when a [FOLLOWUP:] becomes due; how many meaningful words mark a topic as addressed. */
  topics: { followupDueDays: number; addressedWords: { followup: number; concern: number } };
  /** Fetch markers in chat: passages a [RECALL:] returns from the chat log, entries a [DIARY:] returns by meaning. */
  recall: { maxPassages: number; diaryTopK: number };
  /** How long a yes/no question (e.g. a learned rule) waits for an answer; how many first words a typed answer is read from. */
  questions: { ttlMinutes: number; answerWords: number };
  /** Correction candidates: notes (and profile entries) per text (message, previous answer) above a low score; the judge decides. */
  corrections: { candidatesPerText: number; candidateMinScore: number };
  /** Quiet hours; how often the running bot delivers pushes other processes (the CLI) queued in the outbox. */
  push: { quietHours: QuietHours | undefined; outboxPollMs: number };
  /** Nightly diary: schedule (local HH:MM), opt-in ping, and what goes on its sheet. */
  diary: {
    enabled: boolean;
    time: string;
    ping: boolean;
    windowHours: number;
    maxExchanges: number;
    userChars: number;
    liloChars: number;
    thoughts: number;
    lastEntries: number;
  };
  /** Reflection in quiet hours (cron in the local time zone), its sheet, and the concern throttle. */
  reflection: {
    enabled: boolean;
    cron: string;
    exchanges: number;
    userChars: number;
    liloChars: number;
    notes: number;
    relatedThoughts: number;
    lastThoughts: number;
    concernMinHours: number;
    concernDuplicateShare: number;
    concernPing: boolean;
  };
  /**
   * The greeting Lilo pushes on her own (cron in the local time zone): only to
   * users silent for `minHours`, at most one per `minHours`, from the last
   * `messages` messages.
   */
  greeting: { enabled: boolean; cron: string; minHours: number; messages: number };
  /** Live settings (`lilo settings set`): seconds between the running bot's looks at the settings table. */
  live: { pollSeconds: number };
  /**
   * The outside view (SPEC §10): chunk size and message cut in characters, the
   * first output limit and the larger ones after an empty answer, retries on
   * overload or a broken connection, where reports are saved.
   */
  analysis: { chunkChars: number; maxMessageChars: number; maxTokens: number; retryTokens: number[]; maxRetries: number; dir: string };
  telegram: { token?: string; allowedUsers: Record<string, string>; webhookUrl?: string; webhookPort: number; apiRoot?: string };
  /** `maxMessageChars`: longer answers are split into several Matrix messages. */
  matrix: { homeserverUrl?: string; accessToken?: string; allowedUsers: Record<string, string>; maxMessageChars: number };
  terminal: { userId: string };
  /** Web search, fetch_url, news feeds and native tool calls (core/lookup-config.ts). */
  lookup: LookupConfig;
  /** Photos and voice notes: which models see images, the transcription endpoint (core/media-config.ts). */
  media: MediaConfig;
}

/**
 * Parses configuration from environment-style variables. Throws a
 * ConfigError that names every wrong variable.
 */
export function loadConfig(env: Env = {}): LiloConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0] ?? "?")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`, { cause: parsed.error });
  }
  const e = parsed.data;
  if (e.LILO_VECTOR_BACKEND === "qdrant" && !e.QDRANT_URL) {
    throw new ConfigError("LILO_VECTOR_BACKEND=qdrant needs QDRANT_URL (e.g. http://127.0.0.1:6333)");
  }
  const providers = providerSettings(e);
  const chat = e.LILO_CHAT_MODEL ? parseModelSpec("LILO_CHAT_MODEL", e.LILO_CHAT_MODEL, providers) : defaultChatModel(providers);
  const models: Partial<Record<ModelRole, ModelSpec>> = {};
  if (chat) models.chat = chat;
  const roleVars: Record<Exclude<ModelRole, "chat">, string | undefined> = {
    extraction: e.LILO_EXTRACTION_MODEL,
    judge: e.LILO_JUDGE_MODEL,
    reflection: e.LILO_REFLECTION_MODEL,
    diary: e.LILO_DIARY_MODEL,
    analysis: e.LILO_ANALYSIS_MODEL,
  };
  // A role without its own setting is left out: it follows the chat model in force, also after a run-time switch.
  for (const [role, value] of Object.entries(roleVars)) {
    if (value) models[role as ModelRole] = parseModelSpec(`LILO_${role.toUpperCase()}_MODEL`, value, providers);
  }
  const given = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? undefined : v);
  return {
    persona: { name: e.LILO_NAME, language: e.LILO_LANGUAGE, userNames: parsePairs("LILO_USER_NAMES", e.LILO_USER_NAMES) },
    timezone: e.LILO_TIMEZONE,
    dataDir: e.LILO_DATA_DIR,
    dbPath: e.LILO_DB_PATH ?? `${e.LILO_DATA_DIR}/lilo.db`,
    models,
    providers,
    modelCall: { timeoutMs: e.LILO_MODEL_TIMEOUT_MS, maxRetries: e.LILO_MODEL_MAX_RETRIES, maxTokens: e.LILO_MODEL_MAX_TOKENS },
    embedding: {
      model: e.LILO_EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODELS[e.LILO_LANGUAGE],
      localDir: e.LILO_EMBEDDING_MODEL_DIR ?? `${e.LILO_DATA_DIR}/models`,
      offline: e.LILO_EMBEDDING_OFFLINE,
    },
    vector: {
      backend: e.LILO_VECTOR_BACKEND ?? (e.QDRANT_URL ? "qdrant" : "embedded"),
      ...(e.QDRANT_URL ? { qdrantUrl: e.QDRANT_URL } : {}),
      ...(e.QDRANT_API_KEY ? { qdrantApiKey: e.QDRANT_API_KEY } : {}),
      collection: e.QDRANT_COLLECTION,
      graphMinSize: e.LILO_VECTOR_GRAPH_MIN_SIZE,
    },
    memory: {
      notesTopK: e.LILO_NOTES_TOP_K,
      notesMinScore: given(e.LILO_NOTES_MIN_SCORE),
      dedupMinScore: given(e.LILO_DEDUP_MIN_SCORE),
      thoughtsTopK: e.LILO_THOUGHTS_TOP_K,
      thoughtsMinScore: e.LILO_THOUGHTS_MIN_SCORE,
      recentMessages: e.LILO_RECENT_MESSAGES,
      conversationPauseMinutes: e.LILO_CONVERSATION_PAUSE_MINUTES,
      profileMaxChars: e.LILO_PROFILE_MAX_CHARS,
      memoryBudgetTokens: e.LILO_MEMORY_BUDGET_TOKENS,
      importantMaxChars: e.LILO_IMPORTANT_MAX_CHARS,
      passagesMaxChars: e.LILO_PASSAGES_MAX_CHARS,
      passagesTopK: e.LILO_PASSAGES_TOP_K,
    },
    budget: { maxInputChars: e.LILO_MAX_INPUT_CHARS, historyMessageChars: e.LILO_HISTORY_MESSAGE_CHARS, requestTokens: e.LILO_REQUEST_BUDGET_TOKENS },
    inbox: { maxAgeMinutes: e.LILO_INBOX_MAX_AGE_MINUTES, jobMaxAttempts: e.LILO_JOB_MAX_ATTEMPTS },
    topics: {
      followupDueDays: e.LILO_FOLLOWUP_DUE_DAYS,
      addressedWords: { followup: e.LILO_FOLLOWUP_ADDRESSED_WORDS, concern: e.LILO_CONCERN_ADDRESSED_WORDS },
    },
    recall: { maxPassages: e.LILO_RECALL_MAX_PASSAGES, diaryTopK: e.LILO_DIARY_RECALL_TOP_K },
    questions: { ttlMinutes: e.LILO_QUESTION_TTL_MINUTES, answerWords: e.LILO_ANSWER_WORDS },
    corrections: { candidatesPerText: e.LILO_CORRECTION_CANDIDATES_K, candidateMinScore: e.LILO_CORRECTION_MIN_SCORE },
    push: { quietHours: parseQuietHours("LILO_QUIET_HOURS", e.LILO_QUIET_HOURS), outboxPollMs: e.LILO_PUSH_OUTBOX_POLL_MS },
    diary: {
      enabled: e.LILO_DIARY_ENABLED,
      time: e.LILO_DIARY_TIME,
      ping: e.LILO_DIARY_PING,
      windowHours: e.LILO_DIARY_WINDOW_HOURS,
      maxExchanges: e.LILO_DIARY_MAX_EXCHANGES,
      userChars: e.LILO_DIARY_USER_CHARS,
      liloChars: e.LILO_DIARY_LILO_CHARS,
      thoughts: e.LILO_DIARY_THOUGHTS,
      lastEntries: e.LILO_DIARY_LAST_ENTRIES,
    },
    reflection: {
      enabled: e.LILO_REFLECTION_ENABLED,
      cron: e.LILO_REFLECTION_CRON,
      exchanges: e.LILO_REFLECTION_EXCHANGES,
      userChars: e.LILO_REFLECTION_USER_CHARS,
      liloChars: e.LILO_REFLECTION_LILO_CHARS,
      notes: e.LILO_REFLECTION_NOTES,
      relatedThoughts: e.LILO_REFLECTION_RELATED_THOUGHTS,
      lastThoughts: e.LILO_REFLECTION_LAST_THOUGHTS,
      concernMinHours: e.LILO_CONCERN_MIN_HOURS,
      concernDuplicateShare: e.LILO_CONCERN_DUPLICATE_SHARE,
      concernPing: e.LILO_CONCERN_PING,
    },
    greeting: { enabled: e.LILO_GREETING_ENABLED, cron: e.LILO_GREETING_CRON, minHours: e.LILO_GREETING_MIN_HOURS, messages: e.LILO_GREETING_MESSAGES },
    live: { pollSeconds: e.LILO_SETTINGS_POLL_SECONDS },
    analysis: {
      chunkChars: e.LILO_ANALYSIS_CHUNK_CHARS,
      maxMessageChars: e.LILO_ANALYSIS_MAX_MESSAGE_CHARS,
      maxTokens: e.LILO_ANALYSIS_MAX_TOKENS,
      retryTokens: e.LILO_ANALYSIS_RETRY_TOKENS,
      maxRetries: e.LILO_ANALYSIS_MAX_RETRIES,
      dir: e.LILO_ANALYSIS_DIR ?? `${e.LILO_DATA_DIR}/analyses`,
    },
    telegram: {
      ...(e.TELEGRAM_BOT_TOKEN ? { token: e.TELEGRAM_BOT_TOKEN } : {}),
      allowedUsers: parseAllowList("TELEGRAM_ALLOWED_USERS", e.TELEGRAM_ALLOWED_USERS, "telegram"),
      ...(e.TELEGRAM_WEBHOOK_URL ? { webhookUrl: e.TELEGRAM_WEBHOOK_URL } : {}),
      webhookPort: e.TELEGRAM_WEBHOOK_PORT,
      ...(e.TELEGRAM_API_ROOT ? { apiRoot: e.TELEGRAM_API_ROOT } : {}),
    },
    matrix: {
      ...(e.MATRIX_HOMESERVER_URL ? { homeserverUrl: e.MATRIX_HOMESERVER_URL } : {}),
      ...(e.MATRIX_ACCESS_TOKEN ? { accessToken: e.MATRIX_ACCESS_TOKEN } : {}),
      allowedUsers: parseAllowList("MATRIX_ALLOWED_USERS", e.MATRIX_ALLOWED_USERS, "matrix"),
      maxMessageChars: e.MATRIX_MAX_MESSAGE_CHARS,
    },
    terminal: { userId: e.LILO_TERMINAL_USER },
    lookup: lookupConfig(e),
    media: mediaConfig(e),
  };
}

/** The message printed when no chat model can be reached. */
export const NO_MODEL_HELP = [
  "Lilo needs a language model. Set one of these in .env (see .env.example):",
  "  ANTHROPIC_API_KEY=sk-ant-...                 (Claude)",
  "  DEEPSEEK_API_KEY=sk-...                      (DeepSeek)",
  "  OPENAI_BASE_URL=http://127.0.0.1:11434/v1    (any OpenAI-compatible server, e.g. a local Ollama)",
  "    together with LILO_CHAT_MODEL=openai:<model name>, e.g. openai:llama3.1",
].join("\n");

/** The chat model spec, or a ConfigError telling the user what to set. */
export function requireModel(config: LiloConfig, role: ModelRole = "chat"): ModelSpec {
  const spec = config.models[role];
  if (!spec) throw new ConfigError(NO_MODEL_HELP);
  return spec;
}

function providerSettings(e: z.infer<typeof envSchema>): Record<string, ProviderSettings> {
  const out: Record<string, ProviderSettings> = {
    anthropic: { kind: "anthropic", apiKey: e.ANTHROPIC_API_KEY, baseUrl: e.ANTHROPIC_BASE_URL, defaultModel: "claude-sonnet-4-5" },
  };
  for (const [name, v] of Object.entries(OPENAI_COMPATIBLE_VENDORS)) {
    const envRec = e as Record<string, unknown>;
    out[name] = {
      kind: "openai-compatible",
      apiKey: envRec[v.keyVar] as string | undefined,
      baseUrl: (envRec[v.urlVar] as string | undefined) ?? v.defaultUrl,
      defaultModel: v.defaultModel,
    };
  }
  return out;
}

function defaultChatModel(providers: Record<string, ProviderSettings>): ModelSpec | undefined {
  for (const name of ["anthropic", "deepseek", "openai", "openrouter"]) {
    const p = providers[name];
    if (p?.apiKey && p.defaultModel) return { provider: name, model: p.defaultModel };
  }
  return undefined;
}

function parseModelSpec(variable: string, value: string, providers: Record<string, ProviderSettings>): ModelSpec {
  const idx = value.indexOf(":");
  const provider = idx > 0 ? value.slice(0, idx) : value;
  const model = idx > 0 ? value.slice(idx + 1).trim() : "";
  const settings = providers[provider];
  if (!settings) {
    throw new ConfigError(`${variable}: unknown provider "${provider}" (use one of: ${Object.keys(providers).join(", ")}), e.g. anthropic:claude-sonnet-4-5`);
  }
  const resolved = model || settings.defaultModel;
  if (!resolved) throw new ConfigError(`${variable}: name the model, e.g. ${provider}:llama3.1`);
  return { provider, model: resolved };
}

/** "a=b,c=d" → { a: "b", c: "d" }. */
function parsePairs(variable: string, raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw.split(",").map((s) => s.trim()).filter(Boolean)) {
    const idx = part.lastIndexOf("=");
    if (idx <= 0 || idx === part.length - 1) throw new ConfigError(`${variable}: "${part}" is not key=value`);
    out[part.slice(0, idx).trim()] = part.slice(idx + 1).trim();
  }
  return out;
}

/**
 * "123,456=anna" → platform id → Lilo user id. Without "=user" the user id is
 * "<platform>:<id>"; with it, several platforms can share one memory.
 */
function parseAllowList(variable: string, raw: string, platform: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw.split(",").map((s) => s.trim()).filter(Boolean)) {
    const idx = part.lastIndexOf("=");
    if (idx === 0 || idx === part.length - 1) throw new ConfigError(`${variable}: "${part}" is not id or id=user`);
    const id = idx > 0 ? part.slice(0, idx).trim() : part;
    out[id] = idx > 0 ? part.slice(idx + 1).trim() : `${platform}:${id}`;
  }
  return out;
}
