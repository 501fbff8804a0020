import type { LiloConfig } from "../foundation/config/config.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import type { ChatRequest } from "../foundation/ports/chat-model.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import type { Transcriber } from "../foundation/ports/transcriber.ts";
import type { SettingsApi } from "./settings-api.ts";
import type { VoiceApi } from "./voice-api.ts";
import type { IncomingMessage, TurnOptions, TurnResult } from "../conversation/turn/types.ts";
import type { MemoryBlocks } from "../conversation/turn/memory-blocks.ts";
import type { MemoryHit } from "../memory/memory.ts";
import type { UnfinishedMessage } from "../foundation/store/inbox.ts";
import type { ImportedMessage } from "../foundation/store/chat-import.ts";
import type { RankedMessage, RecallPassage } from "../memory/recall/search.ts";
import type { ChatRecallOptions } from "../memory/recall/sheet-recall.ts";
import type { CorrectionEntry, UndoneCorrection } from "../conversation/correction/correction-log.ts";
import type { DiaryApi } from "./diary-api.ts";
import type { ReflectionApi } from "./reflection-api.ts";
import type { GreetingApi } from "./greeting-api.ts";
import type { AnalysisApi } from "./analysis-api.ts";
import type { MemoryApi } from "./memory-api.ts";
import type { ProfileApi } from "./profile-api.ts";
import type { RulesApi } from "./rules-api.ts";
import type { TopicsApi } from "./topics-api.ts";
import type { RemindersApi } from "./reminders-api.ts";
import type { SuggestionsApi } from "./suggestions-api.ts";
import type { BackupApi } from "./backup-api.ts";
import type { DeviceKeysApi } from "./device-keys-api.ts";
import type { TransferApi } from "./transfer-api.ts";
import type { HistoryApi } from "./history-api.ts";
import type { MaintenanceApi } from "./maintenance-api.ts";
import type { ModelsApi } from "./models-api.ts";
import type { PushApi } from "./push-api.ts";
import type { QuestionsApi } from "./questions-api.ts";
import type { LookupsApi } from "./lookups-api.ts";
import type { ContactsApi } from "./contacts-api.ts";
import type { HealthApi } from "./health-api.ts";
import type { LiveApi } from "./live-api.ts";
import type { UsageApi } from "./usage-api.ts";
import type { WebAccessApi } from "./web-access-api.ts";
import type { WhyApi } from "./why-api.ts";
import type { ForgetApi } from "./forget-api.ts";
import type { BoundariesApi } from "./boundaries-api.ts";

/**
 * The durable inbox: adapters store a message when the platform hands it
 * over (before acknowledging it), report whether each answer was delivered,
 * and on start finish what a crash left open.
 */
export interface InboxApi {
  /** Stores a message (once per `externalId`); returns its id and whether it had arrived before. */
  receive(message: IncomingMessage): { messageId: number; duplicate: boolean };
  /**
   * Replaces the text of a stored message whose turn has not run yet (a voice
   * note's placeholder becomes its transcript); false when it was answered already.
   */
  complete(messageId: number, text: string): boolean;
  /** No turn will answer this stored message: the adapter replied itself (a voice note it could not transcribe). */
  dismiss(messageId: number): void;
  /** Messages of one platform whose turn did not finish or whose answer was not sent, oldest first. */
  unfinished(transport: string): UnfinishedMessage[];
  /** Answers (or, past the age limit, acknowledges) a stored message, or returns its unsent answer; undefined when done. */
  finish(messageId: number): Promise<TurnResult | undefined>;
  /** The answer reached the user. */
  delivered(answerId: number): void;
  /** The platform refused the answer: /retry redoes the turn. */
  deliveryFailed(answerId: number): void;
  /** Starts the after-reply jobs (extraction, checks) a crash left pending; returns how many. */
  resumeJobs(): number;
}

/** How a chat-log search is narrowed: whose messages, how many, around which time (the query's vector is added inside). */
type RecallOptions = Omit<ChatRecallOptions, "vector">;

/** The chat log as memory: importing old chats, and the search the cheat sheet and [RECALL:] use. */
export interface RecallApi {
  /** Time words filter, explicit dates rank first, words and meaning fused: passages of neighbouring messages, best first. */
  passages(text: string, options: RecallOptions): Promise<(RecallPassage & { score: number })[]>;
  /** The same ranking as single messages, best first. */
  rank(text: string, options: RecallOptions): Promise<RankedMessage[]>;
  /** Imports chat messages (with their original times) into the chat log, grouped into conversations; returns the ids. */
  importChat(messages: ImportedMessage[]): number[];
  /**
   * Embeds every chat message of the user that has no vector yet (after `importChat`; turns do it a batch at a time)
   * and resolves once the user's keyword index in memory is built; returns how many messages were embedded.
   */
  indexMessages(userId: string): Promise<number>;
}

/** The correction log: corrections of notes and memories (row and vector) and /why verdicts on profile entries, each one undoable. */
export interface CorrectionsApi {
  /** Newest first; one user's entries, or everyone's without `userId`. */
  list(opts?: { userId?: string | undefined; limit?: number }): CorrectionEntry[];
  /** One entry by id. */
  get(id: number): CorrectionEntry | undefined;
  /** Restores the corrected note or profile entry (and forgets a rewrite's new note). */
  undo(id: number): Promise<UndoneCorrection>;
}

/**
 * Lilo as a library: the chat turn and the use cases the adapters, the jobs
 * and the `lilo` CLI need. Nothing of the storage is handed out.
 */
export interface Lilo {
  /** The configuration in force (live settings merged in). */
  readonly config: LiloConfig;
  /** Settings changed at run time (`lilo settings set`), merged over the `.env` configuration. */
  readonly live: LiveApi;
  /** The clock every use case reads (a fixed one in tests). */
  readonly clock: Clock;
  /** Where the core logs (secrets redacted). */
  readonly logger: Logger;
  /** Speech to text for voice notes; undefined when no transcription endpoint is configured. */
  readonly transcriber: Transcriber | undefined;
  /** Voice replies: whether an answer is spoken too, and its voice note (docs/voice.md). */
  readonly voice: VoiceApi;
  /** One chat turn; never throws for a failed model call (see `TurnResult.ok`). `options.stream` shows the answer as it is written. */
  handleMessage(message: IncomingMessage, options?: TurnOptions): Promise<TurnResult>;
  /** The cheat sheet Lilo would send for this message now, with its memory blocks; stores nothing (derived message vectors aside), calls no model. */
  preview(message: { userId: string; text: string }): Promise<{ request: ChatRequest; notes: MemoryHit[]; blocks: MemoryBlocks }>;
  /** Answers the user's last message again after a failure; undefined if it was answered. */
  retry(userId: string, options?: TurnOptions): Promise<TurnResult | undefined>;
  /** The durable inbox (adapters), and resuming what a crash left open. */
  inbox: InboxApi;
  /** Notes, important memories, thoughts and diary entries: row and vector together, the ownership rule inside. */
  memory: MemoryApi;
  /** Profile facts per user. */
  profile: ProfileApi;
  /** Learned behaviour rules. */
  rules: RulesApi;
  /** Follow-ups and concerns Lilo brings up later. */
  topics: TopicsApi;
  /** Lilo's ideas for improving herself. */
  suggestions: SuggestionsApi;
  /** `lilo settings`: list, set and unset live settings and the chat model; configuration and secrets as read-only rows. */
  readonly settings: SettingsApi;
  /** `lilo export` / `lilo import` (JSON Lines). */
  transfer: TransferApi;
  /** `lilo import-history`: chat histories a person brings along (WhatsApp, Telegram, ChatGPT, Claude). */
  history: HistoryApi;
  /** Copies of the whole database, and restoring one. */
  backup: BackupApi;
  /** The chat log as memory: imports, and the search the cheat sheet and [RECALL:] use. */
  recall: RecallApi;
  /** Open yes/no questions Lilo asked, and answering them (button, reaction). */
  questions: QuestionsApi;
  /** The correction log: automatic corrections of notes, each one undoable. */
  corrections: CorrectionsApi;
  /** Receipts: what an answer's sheet held, where each memory came from, and "stimmt nicht"/"veraltet" on one (/why). */
  why: WhyApi;
  /** Forget everywhere: find by words and meaning, show, and after a yes remove or redact every copy. */
  forget: ForgetApi;
  /** Topics Lilo never brings up on her own. */
  boundaries: BoundariesApi;
  /** Pushes Lilo sends on her own (docs/spec.md §9). */
  push: PushApi;
  /** Reminders the person asked for, rung on time through the push outbox (docs/reminders.md). */
  reminders: RemindersApi;
  /** The nightly diary (docs/spec.md §8): "write now", the scheduled run, the entries. */
  diary: DiaryApi;
  /** Reflection in quiet hours (docs/spec.md §9): "think now", the scheduled run, the thoughts. */
  reflection: ReflectionApi;
  /** Greetings Lilo pushes on her own (docs/spec.md §9, Beyond): the scheduled run, "send now", a preview. */
  greeting: GreetingApi;
  /** The outside view (docs/spec.md §10): a second model judges Lilo from the transcripts; saved reports. */
  analysis: AnalysisApi;
  /** Every user Lilo has talked with (distinct user ids in the chat log): whom the jobs run for. */
  knownUsers(): string[];
  /** The chat model in use and run-time switches. */
  models: ModelsApi;
  /** Web search log, news feeds and native-tool settings. */
  lookups: LookupsApi;
  /** `lilo doctor`, `lilo reindex`: the vector index against SQLite, and model-answer problems. */
  maintenance: MaintenanceApi;
  /** What model calls cost: the usage ledger by role, model, user and day, and the budgets (`lilo usage`, /usage). */
  usage: UsageApi;
  /** Login links and sessions of Lilo's pages (`lilo web`, `/web`). */
  webAccess: WebAccessApi;
  /** The key stores of Lilo's end-to-end encryption devices (Matrix), kept in the database. */
  deviceKeys: DeviceKeysApi;
  /** Last successful contact (and last failure) of each adapter and model: adapters report theirs, models are recorded on every call. */
  contacts: ContactsApi;
  /** What `/healthz` and `/metrics` show: the last turn, the backlog, whether the database takes writes. */
  health: HealthApi;
  /**
   * Loads the embedding model (downloading it on a first start) and opens the
   * index now instead of on the first message. A model that cannot be loaded
   * is no failure: recall goes by words until it is there.
   */
  warmUp(): Promise<void>;
  /** The start is over (chats connected): the index's background work held by `holdIndexUpkeep` begins. */
  started(): void;
  /** Waits until background work (extraction, checks) is done. */
  idle(): Promise<void>;
  /**
   * Ends every model call in flight and refuses later ones: the stop after the grace time. A turn cancelled this way
   * stores no answer and leaves its message unanswered in the inbox, so the next start answers it.
   */
  cancelModelCalls(): void;
  /** Stops push delivery, waits for background work, closes the index and (unless passed in) the database. */
  close(): Promise<void>;
}
