import type { MemoryHit } from "../memory/memory.ts";
import type { ChatLogMessage } from "../store/chat-log.ts";
import type { ImageInput } from "../ports/chat-model.ts";
import type { ErrorCode } from "../errors.ts";

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
  mood?: string;
  question?: Question;
  /** The notes that were on the cheat sheet. */
  notesUsed: MemoryHit[];
  error?: { code: ErrorCode; message: string; retryable: boolean };
  /** The message had been handled before (a redelivered update): nothing to send. */
  duplicate?: boolean;
}

/** State of one turn, shared by the steps that run before and after the model call. */
export interface TurnContext {
  userId: string;
  text: string;
  userMessage: ChatLogMessage;
  conversationId: number;
  isNewConversation: boolean;
  /** Lilo's answer just before this message in the same conversation. */
  previousAnswer: ChatLogMessage | undefined;
  now: Date;
  /** Lines added to the cheat sheet (correction hints, a due topic). */
  extras: string[];
  /** A question to ask with the answer (at most one per turn). */
  question?: Question;
  /** JSON-safe state a step keeps for its `after` (stored with the after-reply job, keyed by step name). */
  afterState?: Record<string, unknown>;
}

/**
 * A pluggable part of the chat turn (pending yes/no, corrections, diary
 * questions, topics). `before` may answer the turn itself; `after` runs in
 * the background once the answer is out.
 */
export interface TurnStep {
  readonly name: string;
  /** Its `before` stores nothing and calls no model, so `lilo preview` runs it too and shows its sheet lines. */
  readonly readOnly?: boolean;
  before?(ctx: TurnContext): Promise<TurnResult | void>;
  after?(ctx: TurnContext, answer: { text: string; messageId: number }): Promise<void>;
}
