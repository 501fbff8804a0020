/**
 * The chat turn as one ordered list of `(ctx, next)` middleware (docs/spec.md §4),
 * in the manner of grammY's Composer and Hono's compose: each feature
 * exports its middleware, per-turn state lives on the typed context, and
 * after-reply work is `ctx.waitUntil(...)`, recorded with the answer. Each
 * middleware comes built with its own narrow dependencies
 * (core/api/wiring/turn.ts); this file only orders them and runs the chain.
 */
import type { ChatLogMessage } from "../foundation/store/chat-log.ts";
import type { ImageInput } from "../foundation/ports/chat-model.ts";
import type { IncomingMessage, TurnInput, TurnMiddleware, TurnOptions, TurnResult } from "../conversation/turn/types.ts";
import type { AfterReplyTask } from "../conversation/turn/types.ts";
import type { Received } from "../conversation/turn/receive.ts";
import { Turn } from "../conversation/turn/context.ts";
import { compose } from "../conversation/turn/compose.ts";
import { previewTurn, type Preview, type PreviewDeps } from "../conversation/turn/preview.ts";
import { LiloError } from "../foundation/errors.ts";

/** The turn's parts, each built with its narrow dependencies by the wiring. */
export interface ChatTurnParts {
  /** The built-in middleware by name; the order is this file's. */
  steps: {
    storeMessage: TurnMiddleware;
    /** While a spent budget's cap holds without a fallback model, ends the turn before any model call; else says once a day, under the answer, that the budget is spent. */
    budgetNotice: TurnMiddleware;
    extraction: TurnMiddleware;
    /** The chat log's message vectors, filled after the reply. */
    messageVectors: TurnMiddleware;
    /** The reply to "what is wrong?" after /why's "stimmt nicht", judged. */
    markedWrong: TurnMiddleware;
    pendingAnswer: TurnMiddleware;
    correction: TurnMiddleware;
    /** "Sprich X nicht mehr an" asked back as a yes/no. */
    boundary: TurnMiddleware;
    diaryQuestion: TurnMiddleware;
    returnGreeting: TurnMiddleware;
    dueTopic: TurnMiddleware;
    answer: TurnMiddleware;
  };
  /** More middleware (tests, plugins), run after the built-in checks, before the model. */
  extra: readonly TurnMiddleware[];
  /** Registers the middleware's after-reply jobs, so a restart can run the recorded ones. */
  registerTasks(tasks: readonly AfterReplyTask<never>[]): void;
  /** Stores a message as the platform hands it over. */
  receive(msg: IncomingMessage): Received;
  /** Answers or hands back a stored message after a restart, `answerStored` running the turn. */
  finish(messageId: number, answerStored: (message: ChatLogMessage) => Promise<TurnResult>): Promise<TurnResult | undefined>;
  /** The user's newest message, when its answer failed and may be tried again. */
  retryable(userId: string): ChatLogMessage | undefined;
  preview: PreviewDeps;
}

/** The chat turn's entry points. */
export interface ChatTurn {
  /** One chat turn for a message from an adapter. */
  handle(msg: IncomingMessage, options?: TurnOptions): Promise<TurnResult>;
  /** Answers the user's newest message again after a failed model call or delivery, without storing it twice. */
  retry(userId: string, options?: TurnOptions): Promise<TurnResult | undefined>;
  /** Stores a message as the platform hands it over (before it is acknowledged). */
  receive(msg: IncomingMessage): Received;
  /** Answers or hands back a stored message after a restart (core/conversation/turn/resume.ts). */
  finish(messageId: number): Promise<TurnResult | undefined>;
  /** The cheat sheet Lilo would send for `text` now, storing nothing and calling no model (`lilo preview`). */
  preview(msg: { userId: string; text: string }): Promise<Preview>;
  /** The middleware in order. */
  readonly middleware: readonly TurnMiddleware[];
}

/**
 * Builds the turn: store message → budget notice → extraction and message vectors after the reply →
 * the reply to "what is wrong?" → pending yes/no → correction → boundary → diary question → return greeting →
 * due topic → [extra] → answer with the model. The sheet shows the middleware's sections
 * in docs/spec.md §4 order whatever this order is.
 */
export function createChatTurn(parts: ChatTurnParts): ChatTurn {
  const { steps } = parts;
  const middleware: TurnMiddleware[] = [
    steps.storeMessage,
    steps.budgetNotice,
    steps.extraction,
    steps.messageVectors,
    steps.markedWrong,
    steps.pendingAnswer,
    steps.correction,
    steps.boundary,
    steps.diaryQuestion,
    steps.returnGreeting,
    steps.dueTopic,
    ...parts.extra,
    steps.answer,
  ];
  parts.registerTasks(middleware.flatMap((m) => m.tasks ?? []));
  const chain = compose(middleware);
  const run = async (input: TurnInput, options: TurnOptions = {}): Promise<TurnResult> => {
    const ctx = new Turn(input, options.stream);
    await chain(ctx);
    if (!ctx.result) throw new LiloError("internal", "the chat turn ended without a result");
    return ctx.result;
  };
  const answerStored = (message: ChatLogMessage, images?: ImageInput[]) => run({ kind: "stored", message, images });
  const readOnly = compose(middleware.filter((m) => m.readOnly));

  return {
    middleware,
    handle: (message, options) => run({ kind: "new", message }, options),
    async retry(userId, options) {
      const last = parts.retryable(userId);
      return last ? run({ kind: "retry", message: last }, options) : undefined;
    },
    receive: (msg) => parts.receive(msg),
    finish: (messageId) => parts.finish(messageId, answerStored),
    preview: (msg) => previewTurn(parts.preview, readOnly, msg),
  };
}
