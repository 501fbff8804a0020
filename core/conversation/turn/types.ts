import type { MemoryHit } from "../../memory/memory.ts";
import type { ChatLogMessage } from "../../foundation/store/chat-log.ts";
import type { ImageInput } from "../../foundation/ports/chat-model.ts";
import type { ErrorCode } from "../../foundation/errors.ts";
import type { Mood } from "../markers/emotion.ts";
import type { AnswerStream } from "./answer-stream.ts";

/** A message from a user, as an adapter hands it to the core. */
export interface IncomingMessage {
  /** Lilo's user id (the adapter maps platform ids to it). */
  userId: string;
  text: string;
  /** Where it came from, so pushes can go back there ("telegram", "matrix", "terminal"). */
  transport?: string;
  chatId?: string;
  /** The platform's id of the message (Telegram chat:message id, Matrix event id): a redelivery is not stored or answered twice. */
  externalId?: string;
  /** Pictures sent with the message: passed to a chat model that accepts images, never stored (the text holds the caption). */
  images?: ImageInput[];
  /** The message had pictures the adapter did not fetch, as the chat model takes none: Lilo says she cannot see them. */
  unseenImages?: boolean;
}

/** A yes/no question Lilo asks; adapters render it as buttons, reactions or typed choices. */
export interface Question {
  id: number;
  text: string;
  choices: { value: "yes" | "no"; label: string }[];
}

/** What the core answers; everything an adapter shows comes from here. */
export interface TurnResult {
  ok: boolean;
  text: string;
  userMessageId: number;
  answerMessageId?: number;
  /** "provider:model" that wrote the answer. */
  model?: string;
  /** One of the eight moods, when the model set [EMOTION:]. */
  mood?: Mood;
  question?: Question;
  /** The notes that were on the cheat sheet. */
  notesUsed: MemoryHit[];
  error?: { code: ErrorCode; message: string; retryable: boolean };
  /** The message had been handled before (a redelivered update): nothing to send. */
  duplicate?: boolean;
  /**
   * The spent budget's cap held the message back: no model was asked, the
   * message is stored and `/retry` answers it once the cap is lifted. An
   * empty `text` means the person was told today already: adapters show a
   * 😴 reaction instead of a message.
   */
  paused?: boolean;
  /** The person stopped the answer while it was written: `text` is what had been shown, stored as the answer. */
  stopped?: boolean;
}

/** How an adapter wants one turn run. */
export interface TurnOptions {
  /** Shows the answer as it is written (when LILO_STREAMING is not off). */
  stream?: AnswerStream | undefined;
}

/**
 * Sections earlier middleware adds to the cheat sheet. The sheet renders
 * them in docs/spec.md §4 order (core/conversation/turn/cheat-sheet.ts), whatever order the
 * middleware runs in.
 */
export interface SheetSlots {
  /** What became of the open yes/no question this message answered or passed by. */
  questionOutcome?: string;
  /** The greeting on return: the pause in words and the last messages before it. */
  returnGreeting?: string;
  /** At most one due topic with its instruction. */
  dueTopic?: string;
  /** Corrected notes, profile entries offered for removal, the rule Lilo asks about. */
  corrections: string[];
  /** The diary's numbers and newest entries for a question about the diary. */
  diaryQuestion?: string;
  /** The message had pictures the model cannot see. */
  unseenPhotos?: string;
}

/** Flags one middleware leaves for later ones in the same turn. */
export interface TurnFlags {
  /** The message answered an open yes/no question: the turn asks no new one. */
  answeredQuestion: boolean;
  /** Outside text (pages, search results, feed items) the answer was written with. */
  outside?: string[];
}

/** The user's message with what the turn reads of it (set by the store-message middleware). */
export interface StoredTurn {
  userMessage: ChatLogMessage;
  /** The message text as the model reads it (an oversized one shortened). */
  text: string;
  /** Told to the user after the answer when the message was shortened. */
  notice?: string | undefined;
  conversationId: number;
  isNewConversation: boolean;
  /** Lilo's answer just before this message in the same conversation. */
  previousAnswer: ChatLogMessage | undefined;
  now: Date;
  /** Pictures for a chat model that accepts them; an empty list stands for pictures it will not see. */
  images?: ImageInput[] | undefined;
}

/** A user message and the answer written to it: what after-reply work is about. */
export interface Exchange {
  user: ChatLogMessage;
  answer: ChatLogMessage;
}

/**
 * Work after the reply (extraction, the due topic's addressed-check): a
 * named job with JSON state, recorded in the same transaction as the answer
 * and resumed after a crash, so its `kind` is a stored name that stays.
 */
export interface AfterReplyTask<S> {
  readonly kind: string;
  run(exchange: Exchange, state: S): Promise<void>;
}

/** One registered piece of after-reply work of a turn. */
export interface ScheduledTask {
  kind: string;
  state: unknown;
}

/** What a turn starts from. */
export type TurnInput =
  /** A message from an adapter: stored first (or found stored, when redelivered). */
  | { kind: "new"; message: IncomingMessage }
  /** A stored message answered now (after a restart or a queue); a new conversation summarises the previous one. */
  | { kind: "stored"; message: ChatLogMessage; images?: ImageInput[] | undefined }
  /** The user's newest message answered again after a failure. */
  | { kind: "retry"; message: ChatLogMessage }
  /** `lilo preview`: a message that is not stored, for the read-only middleware. */
  | { kind: "preview"; message: ChatLogMessage };

/**
 * The state of one chat turn, handed down the middleware (core/api/pipeline.ts).
 * Its message fields exist once the store-message middleware ran; typed
 * sheet slots and flags replace untyped lines and state kept aside.
 */
export interface TurnContext extends Readonly<StoredTurn> {
  readonly userId: string;
  readonly input: TurnInput;
  /** Where the answer streams to as it is written, when the adapter asked for it. */
  readonly stream?: AnswerStream | undefined;
  readonly sheet: SheetSlots;
  readonly flags: TurnFlags;
  /** A question to ask with the answer (at most one per turn). */
  question?: Question;
  /** The turn's outcome. A middleware that answers the turn itself sets it and does not call `next`. */
  result?: TurnResult;
  /** Registers after-reply work, stored with the answer (dropped when no model answer is stored). */
  waitUntil<S>(task: AfterReplyTask<S>, state: S): void;
  /** The after-reply work registered so far, in order. */
  readonly scheduled: readonly ScheduledTask[];
  /** Sets the message fields: the store-message middleware does, or the preview for a message it does not store. */
  attach(stored: StoredTurn): void;
  /** The message's reply state was written with the answer or its failure; otherwise the store-message middleware writes it. */
  replyRecorded: boolean;
}

/** `next` of a middleware: runs the rest of the turn. */
type Next = () => Promise<void>;

/**
 * A part of the chat turn, grammY/Hono style: `(ctx, next)`; what runs after
 * `await next()` sees the answer. `readOnly` middleware stores nothing and
 * calls no model, so `lilo preview` runs it too; `tasks` are the after-reply
 * jobs it may register with `ctx.waitUntil`.
 */
export interface TurnMiddleware {
  readonly name: string;
  readonly readOnly?: boolean;
  readonly tasks?: readonly AfterReplyTask<never>[];
  run(ctx: TurnContext, next: Next): Promise<void>;
}
