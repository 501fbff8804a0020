import type { ChatLogMessage } from "../../foundation/store/chat-log.ts";
import type { ImageInput } from "../../foundation/ports/chat-model.ts";
import { LiloError } from "../../foundation/errors.ts";
import type { AnswerStream } from "./answer-stream.ts";
import type { AfterReplyTask, Question, ScheduledTask, SheetSlots, StoredTurn, TurnContext, TurnFlags, TurnInput, TurnResult } from "./types.ts";

/**
 * The context of one turn. Reading a message field before the store-message
 * middleware set it is a wiring mistake, reported as such.
 */
export class Turn implements TurnContext {
  readonly sheet: SheetSlots = { corrections: [] };
  readonly flags: TurnFlags = { answeredQuestion: false };
  question?: Question;
  result?: TurnResult;
  /** After-reply work registered by the middleware, in order. */
  readonly scheduled: ScheduledTask[] = [];
  /** The reply state of the message was recorded with the answer (or its failure). */
  replyRecorded = false;
  private stored: StoredTurn | undefined;

  constructor(
    readonly input: TurnInput,
    readonly stream?: AnswerStream,
  ) {}

  /** Sets the message fields (the store-message middleware, or the preview for a message not stored). */
  attach(stored: StoredTurn): void {
    this.stored = stored;
  }

  waitUntil<S>(task: AfterReplyTask<S>, state: S): void {
    this.scheduled.push({ kind: task.kind, state });
  }

  get userId(): string {
    return this.input.message.userId;
  }

  private get s(): StoredTurn {
    if (!this.stored) throw new LiloError("internal", "a turn middleware read the message before it was stored");
    return this.stored;
  }

  get userMessage(): ChatLogMessage {
    return this.s.userMessage;
  }
  get text(): string {
    return this.s.text;
  }
  get notice(): string | undefined {
    return this.s.notice;
  }
  get conversationId(): number {
    return this.s.conversationId;
  }
  get isNewConversation(): boolean {
    return this.s.isNewConversation;
  }
  get previousAnswer(): ChatLogMessage | undefined {
    return this.s.previousAnswer;
  }
  get now(): Date {
    return this.s.now;
  }
  get images(): ImageInput[] | undefined {
    return this.s.images;
  }
}
