import { z } from "zod";
import type { QuietHours } from "../util/quiet-hours.ts";
import { localSettings } from "./local-settings.ts";
import { costSettings } from "./cost-settings.ts";
import { lookupSettings } from "./lookup-settings.ts";
import { bool, cronPattern, int, isTimeZone, num, opt, optionalScore, positive, positiveInt, quietHours, score, setting as s, url } from "./rules.ts";

/**
 * The configuration table: one nested zod schema whose leaves carry their
 * environment variable, default, description and flags (rules.ts). Its
 * output, plus the values derived from it in config.ts, is `LiloConfig`;
 * `.env.example` and `lilo settings` are generated from it. Every default
 * number of the specification lives here and nowhere else; the chat
 * adapters bring their own variables as sections (config/section.ts).
 */

const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

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
  run: z.object({
    logLevel: s(
      z
        .string()
        .trim()
        .default("info")
        .pipe(z.enum(LOG_LEVELS, { error: (i) => `use one of ${LOG_LEVELS.join(", ")}, not "${String(i.input)}"` })),
      { env: "LILO_LOG_LEVEL", doc: "debug, info, warn, error", group: "data" },
    ),
    shutdownGraceS: s(int(10), {
      env: "LILO_SHUTDOWN_GRACE_S",
      doc: "on SIGTERM/SIGINT, how long running turns may finish; a turn still running then is cancelled and answered after the next start",
      group: "service",
    }),
    healthPort: s(int(0), {
      env: "LILO_HEALTH_PORT",
      doc: "0: off; a port: GET /healthz (JSON, 503 while stopping or when the database cannot be written) and GET /metrics (Prometheus)",
      group: "service",
    }),
    healthHost: s(z.string().trim().min(1).default("127.0.0.1"), {
      env: "LILO_HEALTH_HOST",
      doc: "address the health and metrics server listens on (loopback unless set here on purpose)",
      group: "service",
    }),
    envFile: s(opt(), {
      env: "LILO_ENV_FILE",
      doc: "read by npm start and lilo instead of $LILO_HOME/.env (it must exist); set only in the real environment",
      group: "data",
      example: ".env",
    }),
  }),
  embedding: z.object({
    model: s(opt(), {
      env: "LILO_EMBEDDING_MODEL",
      doc: "default follows LILO_LANGUAGE: de → Xenova/paraphrase-multilingual-MiniLM-L12-v2 (≈ 120 MB), en → Xenova/all-MiniLM-L6-v2 (≈ 25 MB); after a switch run `lilo reindex --apply`",
      group: "embeddings",
      listed: "embedding.model",
    }),
    localDir: s(opt(), {
      env: "LILO_EMBEDDING_MODEL_DIR",
      doc: "downloaded once on first start, then read from here; default $LILO_DATA_DIR/models",
      group: "embeddings",
      example: "data/models",
    }),
    offline: s(bool(false), { env: "LILO_EMBEDDING_OFFLINE", doc: "true: never download; the model must be in the directory", group: "embeddings" }),
    retrySeconds: s(positive(60), {
      env: "LILO_EMBEDDING_RETRY_SECONDS",
      doc: "without the model (offline, files missing) Lilo recalls by words only and the running bot tries it again after this long, doubling up to 16 times it",
      group: "embeddings",
    }),
  }),
  // Lilo's own model, run in this process (LILO_CHAT_MODEL=local:<name or file.gguf>)
  local: localSettings,
  vector: z.object({
    backend: s(z.enum(["embedded", "sqlite-vec", "qdrant"]).optional(), {
      env: "LILO_VECTOR_BACKEND",
      doc: "embedded (default: vectors in the SQLite file + int8 RAM copy saved as lilo.db.vectors) or qdrant (needs QDRANT_URL; default when it is set); the removed sqlite-vec is read as embedded",
      group: "embeddings",
      example: "embedded",
      listed: "vector.backend",
    }),
    graphMinSize: s(int(2_000_000), {
      env: "LILO_VECTOR_GRAPH_MIN_SIZE",
      doc: "embedded: a user's store with this many vectors is searched through an HNSW graph",
      group: "embeddings",
    }),
    // The chat messages' own threshold (their graph searches wider per hit asked than a notes graph)
    messageGraphMinSize: s(int(100_000), {
      env: "LILO_MESSAGE_GRAPH_MIN_SIZE",
      doc: "embedded: a user's chat-message vectors are searched through an HNSW graph from this many on (below: exact scan)",
      group: "embeddings",
    }),
    // Rescoring in RAM for partitions with a graph (no float reads from SQLite)
    residualMb: s(int(256), {
      env: "LILO_VECTOR_RESIDUAL_MB",
      doc: "embedded: RAM (MB) for the residuals that let a store with a graph rescore in RAM (38.5 MB per 100k vectors of 384 dims); 0 = read floats from SQLite",
      group: "embeddings",
    }),
    qdrantUrl: s(url(), { env: "QDRANT_URL", doc: "a Qdrant server", group: "embeddings", example: "http://127.0.0.1:6333" }),
    qdrantApiKey: s(opt(), { env: "QDRANT_API_KEY", doc: "the Qdrant server's API key, when it asks for one", group: "embeddings", secret: true }),
    collection: s(z.string().trim().min(1).default("lilo"), {
      env: "QDRANT_COLLECTION",
      doc: "the Qdrant collection that holds Lilo's vectors",
      group: "embeddings",
    }),
  }),
  memory: z.object({
    notesTopK: s(int(5), { env: "LILO_NOTES_TOP_K", doc: "notes found for a message, on the sheet", group: "memory" }),
    notesMinScore: s(optionalScore(), {
      env: "LILO_NOTES_MIN_SCORE",
      doc: "default from the embedder in use: 0.3 MiniLM, 0.4 multilingual, 0.3 unknown",
      group: "memory",
    }),
    dedupMinScore: s(optionalScore(), {
      env: "LILO_DEDUP_MIN_SCORE",
      doc: "default from the embedder in use: 0.82 MiniLM, 0.88 multilingual; unknown: exact text only",
      group: "memory",
    }),
    thoughtsTopK: s(int(3), { env: "LILO_THOUGHTS_TOP_K", doc: "thoughts found for a message, on the sheet", group: "memory" }),
    thoughtsMinScore: s(score(0.3), {
      env: "LILO_THOUGHTS_MIN_SCORE",
      doc: "cosine floor of a thought found by meaning, on the sheet and in the reflection",
      group: "memory",
    }),
    recentMessages: s(int(12), { env: "LILO_RECENT_MESSAGES", doc: "earlier messages of the running conversation on the sheet", group: "memory" }),
    conversationPauseMinutes: s(positive(60), {
      env: "LILO_CONVERSATION_PAUSE_MINUTES",
      doc: "after this pause a message starts a new conversation (and gets the greeting context)",
      group: "memory",
      listed: "conversation.pause_minutes",
    }),
    profileMaxChars: s(int(4_000), { env: "LILO_PROFILE_MAX_CHARS", doc: "filled fairly across categories, most relevant and newest first", group: "memory" }),
    // the whole memory part of the cheat sheet, estimated tokens (3 characters each, see request-budget.ts)
    memoryBudgetTokens: s(int(2_000), {
      env: "LILO_MEMORY_BUDGET_TOKENS",
      doc: "the whole memory part of the sheet, estimated at 3 characters a token",
      group: "memory",
    }),
    importantMaxChars: s(int(1_500), {
      env: "LILO_IMPORTANT_MAX_CHARS",
      doc: "important memories on every sheet; most relevant first when they do not all fit",
      group: "memory",
    }),
    passagesTopK: s(int(12), {
      env: "LILO_PASSAGES_TOP_K",
      doc: "most verbatim chat-log passages from earlier conversations on the sheet; as many as fit LILO_PASSAGES_MAX_CHARS",
      group: "memory",
    }),
    passagesMaxChars: s(int(4_200), {
      env: "LILO_PASSAGES_MAX_CHARS",
      doc: "characters the passages may use of the memory budget (what notes, profile and important memories leave)",
      group: "memory",
    }),
    rerankerModel: s(opt(), {
      env: "LILO_RERANKER_MODEL",
      doc: "a cross-encoder (transformers.js, e.g. Xenova/ms-marco-MiniLM-L-6-v2) reordering the chat-log candidates before the budget cut; off when unset; read from LILO_EMBEDDING_MODEL_DIR",
      group: "memory",
      example: "Xenova/ms-marco-MiniLM-L-6-v2",
    }),
    rerankTopN: s(int(30), { env: "LILO_RERANK_TOP_N", doc: "candidates the reranker reads per sheet (its cost grows with them)", group: "memory" }),
    // The concept step of the chat-log search (a question about a category finds messages naming its instances)
    conceptLexicon: s(z.string().trim().min(1).default("wordnet"), {
      env: "LILO_CONCEPT_LEXICON",
      doc: 'kinds and instances of a question\'s category for the chat-log search ("martial arts" finds "taekwondo"; English questions): wordnet (bundled WordNet 3.1), off, or a folder holding index.noun and data.noun in WordNet\'s format',
      group: "memory",
    }),
    // The chat log's keyword index in memory (per user); beyond this the least recently searched users' are dropped
    chatKeywordIndexMb: s(int(512), {
      env: "LILO_CHAT_KEYWORD_INDEX_MB",
      doc: "memory for the chat log's keyword index (per user, least recently searched dropped first); 0: off, FTS5 ranks every search",
      group: "memory",
    }),
    // SQLite's page cache of Lilo's connection (SQLite's default is 2 MB)
    sqliteCacheMb: s(int(64), {
      env: "LILO_SQLITE_CACHE_MB",
      doc: "SQLite's page cache of Lilo's database connection in MB (SQLite's default: 2): among many users a large database's pages of the users in conversation stay in memory; 0: SQLite's default",
      group: "memory",
    }),
    // The same index over the memory stores (notes, important, thoughts, diary), per user and store
    memoryKeywordIndexMb: s(int(256), {
      env: "LILO_MEMORY_KEYWORD_INDEX_MB",
      doc: "memory for the notes' (and other memory stores') keyword index (per user and store, least recently searched dropped first; about 1 MB per 1,000 notes, 40 MB per 100k); 0: off, FTS5 ranks every search",
      group: "memory",
    }),
  }),
  // nothing lost: a message stored while Lilo was down is answered on start unless older than this (then only acknowledged)
  inbox: z.object({
    maxAgeMinutes: s(positive(720), {
      env: "LILO_INBOX_MAX_AGE_MINUTES",
      doc: 'messages stored while Lilo was down are answered on start unless older; older ones only get "I was offline"',
      group: "memory",
    }),
    jobMaxAttempts: s(positiveInt(3), {
      env: "LILO_JOB_MAX_ATTEMPTS",
      doc: "tries of an after-reply job (extraction, addressed-check) before it is marked failed",
      group: "memory",
    }),
  }),
  topics: z.object({
    followupDueDays: s(num(14), { env: "LILO_FOLLOWUP_DUE_DAYS", doc: "when a [FOLLOWUP:] topic becomes due", group: "memory" }),
    // addressed-check (docs/spec.md §9): meaningful words of a topic that must recur in Lilo's answer
    addressedWords: z.object({
      followup: s(positiveInt(1), {
        env: "LILO_FOLLOWUP_ADDRESSED_WORDS",
        doc: "meaningful words of a follow-up in her answer → done; whole words, no filler",
        group: "memory",
      }),
      concern: s(positiveInt(2), {
        env: "LILO_CONCERN_ADDRESSED_WORDS",
        doc: "the same for a 🧠 concern: one word of a sentence recurs by chance too often",
        group: "memory",
      }),
    }),
  }),
  questions: z.object({
    ttlMinutes: s(num(60), { env: "LILO_QUESTION_TTL_MINUTES", doc: 'how long a "Soll ich mir das merken?" question waits', group: "memory" }),
    answerWords: s(int(4), { env: "LILO_ANSWER_WORDS", doc: "a typed yes/no is read from this many first words, whole words only", group: "memory" }),
  }),
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
  diary: z.object({
    enabled: s(bool(true), { env: "LILO_DIARY_ENABLED", doc: "false: no nightly diary", group: "diary", live: "diary.enabled" }),
    time: s(
      z
        .string()
        .trim()
        .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, "use HH:MM, e.g. 23:45")
        .default("23:45"),
      {
        env: "LILO_DIARY_TIME",
        doc: "HH:MM, local time",
        group: "diary",
        live: "diary.time",
      },
    ),
    ping: s(bool(true), {
      env: "LILO_DIARY_PING",
      doc: "a short push after each entry, only to users who opted in to pushes",
      group: "diary",
      live: "diary.ping",
    }),
    windowHours: s(num(24), { env: "LILO_DIARY_WINDOW_HOURS", doc: "no conversation in this window → no entry", group: "diary" }),
    maxExchanges: s(int(40), { env: "LILO_DIARY_MAX_EXCHANGES", doc: "the newest exchanges of the window the diary reads", group: "diary" }),
    userChars: s(int(400), { env: "LILO_DIARY_USER_CHARS", doc: "the user's messages are cut to this on the diary sheet", group: "diary" }),
    liloChars: s(int(600), { env: "LILO_DIARY_LILO_CHARS", doc: "Lilo's answers are cut to this", group: "diary" }),
    thoughts: s(int(3), { env: "LILO_DIARY_THOUGHTS", doc: "thoughts of the window, newest first", group: "diary" }),
    lastEntries: s(int(3), { env: "LILO_DIARY_LAST_ENTRIES", doc: "earlier entries for continuity; also how many a diary question shows", group: "diary" }),
  }),
  reflection: z.object({
    enabled: s(bool(true), {
      env: "LILO_REFLECTION_ENABLED",
      doc: "false: no reflection, no new 🧠 concerns",
      group: "reflection",
      live: "reflection.enabled",
    }),
    cron: s(cronPattern("0 22 * * *", "a cron pattern of 5 or 6 fields, e.g. 0 22 * * * (daily 22:00) or 0 * * * * (hourly)"), {
      env: "LILO_REFLECTION_CRON",
      doc: "daily 22:00 local time; hourly: 0 * * * *",
      group: "reflection",
      live: "reflection.cron",
    }),
    exchanges: s(int(12), { env: "LILO_REFLECTION_EXCHANGES", doc: "the newest exchanges the reflection reads", group: "reflection" }),
    userChars: s(int(200), { env: "LILO_REFLECTION_USER_CHARS", doc: "the user's messages are cut to this on the reflection sheet", group: "reflection" }),
    liloChars: s(int(300), { env: "LILO_REFLECTION_LILO_CHARS", doc: "Lilo's answers are cut to this", group: "reflection" }),
    notes: s(int(4), { env: "LILO_REFLECTION_NOTES", doc: "found with the user's last 5 messages", group: "reflection" }),
    relatedThoughts: s(int(3), { env: "LILO_REFLECTION_RELATED_THOUGHTS", doc: "earlier thoughts found with the user's last 5 messages", group: "reflection" }),
    lastThoughts: s(int(3), { env: "LILO_REFLECTION_LAST_THOUGHTS", doc: "Lilo's newest thoughts, shown as they are", group: "reflection" }),
    concernMinHours: s(num(20), { env: "LILO_CONCERN_MIN_HOURS", doc: "at most one new 🧠 concern per this many hours; more are queued", group: "reflection" }),
    concernDuplicateShare: s(z.coerce.number().min(0).max(1).default(0.6), {
      env: "LILO_CONCERN_DUPLICATE_SHARE",
      doc: "share of meaningful words shared with an open topic → not created",
      group: "reflection",
    }),
    concernPing: s(bool(true), {
      env: "LILO_CONCERN_PING",
      doc: "push a new concern to users who opted in to pushes",
      group: "reflection",
      live: "reflection.concern_ping",
    }),
  }),
  // greetings (docs/spec.md §9): the pushed greeting is off by default (see README, "Follow-up topics and greetings")
  greeting: z.object({
    enabled: s(bool(false), {
      env: "LILO_GREETING_ENABLED",
      doc: "true: a greeting is pushed on the schedule below",
      group: "greeting",
      live: "greeting.enabled",
    }),
    cron: s(cronPattern("0 9 * * *"), { env: "LILO_GREETING_CRON", doc: "daily 09:00 local time", group: "greeting", live: "greeting.cron" }),
    minHours: s(positive(20), {
      env: "LILO_GREETING_MIN_HOURS",
      doc: "only users silent this long; never twice into silence",
      group: "greeting",
      listed: "greeting.min_hours",
    }),
    messages: s(positiveInt(6), { env: "LILO_GREETING_MESSAGES", doc: "last messages the greeting is written from", group: "greeting" }),
  }),
  push: z.object({
    quietHours: s(quietHours("LILO_QUIET_HOURS"), {
      env: "LILO_QUIET_HOURS",
      doc: "e.g. 22:30-07:00: no pushes then, local time",
      group: "memory",
      live: "push.quiet_hours",
      show: (c: { push: { quietHours: QuietHours | undefined } }) => {
        const q = c.push.quietHours;
        return q ? `${hhmm(q.startMinute)}-${hhmm(q.endMinute)}` : "none";
      },
    }),
    outboxPollMs: s(positiveInt(1500), {
      env: "LILO_PUSH_OUTBOX_POLL_MS",
      doc: "the running bot delivers pushes the CLI queued, checking this often",
      group: "memory",
    }),
    maxAgeHours: s(positive(24), {
      env: "LILO_PUSH_MAX_AGE_HOURS",
      doc: "a queued push older than this is dropped (logged as expired), not sent late",
      group: "memory",
    }),
    reminderMaxPending: s(positiveInt(50), { env: "LILO_REMINDER_MAX_PENDING", doc: "reminders one person may have waiting at once", group: "memory" }),
    reminderMaxChars: s(positiveInt(1_000), {
      env: "LILO_REMINDER_MAX_CHARS",
      doc: "the longest reminder text (a reminder is one chat message)",
      group: "memory",
    }),
    reminderLateHours: s(positive(12), {
      env: "LILO_REMINDER_LATE_HOURS",
      doc: "a reminder the bot was down for is sent late, with a note, up to this many hours; later it is listed as missed",
      group: "memory",
    }),
  }),
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
      doc: "saved reports; unfinished runs keep a .json state here; default $LILO_DATA_DIR/analyses",
      group: "analysis",
      example: "data/analyses",
    }),
  }),
  lookup: lookupSettings,
  media: z.object({
    vision: s(z.string().default("anthropic,openai,openrouter"), {
      env: "LILO_VISION",
      doc: 'chat models that get photos: providers or provider:model; "none" = caption only',
      group: "media",
    }),
    maxImageBytes: s(positiveInt(5_000_000), { env: "LILO_MAX_IMAGE_BYTES", doc: "larger photos are not downloaded", group: "media" }),
    maxAudioBytes: s(positiveInt(20_000_000), { env: "LILO_MAX_AUDIO_BYTES", doc: "larger voice notes are not downloaded", group: "media" }),
    transcribe: z.object({
      baseUrl: s(url(), {
        env: "LILO_TRANSCRIBE_BASE_URL",
        doc: "voice notes: an OpenAI-compatible /audio/transcriptions endpoint (OpenAI, Groq, local whisper); unset = a short reply instead",
        group: "media",
        example: "https://api.openai.com/v1",
      }),
      model: s(z.string().trim().min(1).default("whisper-1"), {
        env: "LILO_TRANSCRIBE_MODEL",
        doc: "the transcription model the endpoint offers",
        group: "media",
      }),
      apiKey: s(opt(), { env: "LILO_TRANSCRIBE_API_KEY", doc: "the endpoint's key (a local server may need none)", group: "media", secret: true }),
      timeoutMs: s(positiveInt(60_000), { env: "LILO_TRANSCRIBE_TIMEOUT_MS", doc: "per voice note", group: "media" }),
      maxRetries: s(int(2), { env: "LILO_TRANSCRIBE_MAX_RETRIES", doc: "by the SDK, as for model calls", group: "media" }),
    }),
  }),
  terminal: z.object({
    userId: s(z.string().trim().min(1).default("owner"), { env: "LILO_TERMINAL_USER", doc: "the Lilo user id of the terminal chat", group: "terminal" }),
  }),
});

/** The table's output before derived values (providers, model specs, user names, …) are added. */
export type RawConfig = z.output<typeof rawConfigSchema>;
