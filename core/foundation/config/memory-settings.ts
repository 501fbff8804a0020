import { z } from "zod";
import { int, num, opt, optionalScore, positive, positiveInt, score, setting as s } from "./rules.ts";

/* What the cheat sheet takes from each store, the inbox, follow-up topics and questions. */

/** memory: a section of the table in schema.ts. */
export const memorySettings = z.object({
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
});
// nothing lost: a message stored while Lilo was down is answered on start unless older than this (then only acknowledged)

/** inbox: a section of the table in schema.ts. */
export const inboxSettings = z.object({
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
});

/** topics: a section of the table in schema.ts. */
export const topicsSettings = z.object({
  followupDueDays: s(num(14), { env: "LILO_FOLLOWUP_DUE_DAYS", doc: "when a [FOLLOWUP:] topic becomes due", group: "memory" }),
  // A plan from a chat of years ago is no follow-up: only imported conversations this recent are asked for topics.
  importRecentDays: s(int(14), {
    env: "LILO_IMPORT_FOLLOWUP_DAYS",
    doc: "imported conversations whose last message is at most this many days old give follow-up topics; 0: none do",
    group: "memory",
  }),
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
});

/** questions: a section of the table in schema.ts. */
export const questionsSettings = z.object({
  ttlMinutes: s(num(60), { env: "LILO_QUESTION_TTL_MINUTES", doc: 'how long a "Soll ich mir das merken?" question waits', group: "memory" }),
  answerWords: s(int(4), { env: "LILO_ANSWER_WORDS", doc: "a typed yes/no is read from this many first words, whole words only", group: "memory" }),
});
