import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import { modelLabel, type ChatModel, type ChatRequest } from "../../foundation/ports/chat-model.ts";
import type { MemoryHit } from "../../memory/memory.ts";
import type { MemoryBlocks } from "./memory-blocks.ts";
import type { Persona } from "../persona/persona.ts";
import type { Marker } from "../markers/marker.ts";
import type { Mood } from "../markers/emotion.ts";
import type { TurnSheet } from "./sheet.ts";
import type { Answering } from "./answering.ts";
import type { TurnContext as Turn, TurnMiddleware, TurnResult } from "./types.ts";
import { recordAnswer, type ReplyRecorder } from "./after-reply.ts";
import { streamingModel, type StreamingModel } from "./answer-stream.ts";
import { applyBudget } from "./request-budget.ts";
import { imagePlan } from "./images.ts";
import { normalizeText } from "../../foundation/util/text.ts";
import { LiloError, ProviderError, describeError } from "../../foundation/errors.ts";
import { TURN_TEXTS } from "../prompts/turn-texts.ts";
import { isCancelled } from "../../foundation/models/call-gate.ts";

/** The collaborators of the model's answer. */
interface AnswerServices {
  /** The cheat sheet with the earlier middleware's sections. */
  sheet: TurnSheet;
  /** The chat model with its tools and markers. */
  answering: Answering;
  /** Stores the answer with its after-reply jobs. */
  replies: ReplyRecorder;
  persona: Persona;
  logger: Logger;
  /** Records what the sheet of each stored answer held (/why). */
  receipts?: { record(userId: string, answerId: number, blocks: MemoryBlocks): void };
}

/** Its configuration slice. */
interface AnswerConfig {
  budget: LiloConfig["budget"];
  media: LiloConfig["media"];
  maxTokens: number;
  /** LILO_STREAMING now (a live setting): "off" sends every answer whole even when the adapter asks for a stream. */
  streaming: () => LiloConfig["modelCall"]["streaming"];
}

/** How often the model is asked before an empty or markers-only answer is reported. */
const EMPTY_ANSWER_TRIES = 2;

/**
 * The last middleware (docs/spec.md §4 steps 3–6): the cheat sheet with the earlier
 * middleware's sections, the model call (native tools where the provider has
 * them), markers executed and stripped, the answer stored with the
 * after-reply work. A failure is the turn's result, never thrown: the
 * message stays retryable. Only a call cancelled on stop is thrown on.
 */
export function answerWithModel(s: AnswerServices, config: AnswerConfig): TurnMiddleware {
  return {
    name: "answer",
    async run(turn) {
      let notes: MemoryHit[] = [];
      let live: StreamingModel | undefined;
      try {
        const base = s.answering.model();
        live = turn.stream && config.streaming() !== "off" ? streamingModel(base, s.answering.markers, turn.stream) : undefined;
        turn.result = await answer(s, config, turn, live?.model ?? base, (n) => (notes = n));
      } catch (err) {
        // Lilo is stopping: the message stays unanswered (not failed) and the next start answers it; nothing is said now.
        if (isCancelled(err)) throw err;
        // The person stopped the answer: what they saw is the answer, kept as such.
        const shown = turn.stream?.signal?.aborted ? live?.shown().trim() : undefined;
        turn.result = shown && live ? stopped(s, turn, live.model, shown, notes) : failed(s, turn, err, notes);
      }
      turn.replyRecorded = true;
    },
  };
}

async function answer(s: AnswerServices, config: AnswerConfig, ctx: Turn, model: ChatModel, report: (notes: MemoryHit[]) => void): Promise<TurnResult> {
  const language = s.persona.language;
  const pictures = imagePlan({ media: config.media, language }, model, ctx, ctx.images);
  let notes: MemoryHit[] = [];
  let blocks: MemoryBlocks | undefined;
  const budgeted = applyBudget(
    await s.sheet.assemble(ctx, (b) => {
      blocks = b;
      report((notes = b.notes.kept));
    }),
    config.budget,
    language,
  );
  if (budgeted.dropped) s.logger.debug("older turns left off to stay within the request budget", { userId: ctx.userId, dropped: budgeted.dropped });
  if (budgeted.overBy > 0) s.logger.warn("the cheat sheet alone is over the request budget", { userId: ctx.userId, overByTokens: budgeted.overBy });
  const request = pictures.attach({ ...budgeted.request, maxTokens: config.maxTokens, purpose: "chat", userId: ctx.userId });
  // An empty or markers-only answer is not an answer: ask once more, then report it (the turn stays retryable).
  for (let attempt = 0; attempt < EMPTY_ANSWER_TRIES; attempt++) {
    const reply = await s.answering.complete(ctx, model, request);
    // An answer written with chat-log passages (the recall tool or [RECALL:]) ranks below originals in later searches.
    const result = await finish(s, ctx, model, request, normalizeText(reply.text), notes, reply);
    if (result?.answerMessageId !== undefined && blocks) s.receipts?.record(ctx.userId, result.answerMessageId, blocks);
    if (result) return pictures.annotate(ctx.notice ? { ...result, text: `${result.text}\n\n${ctx.notice}` } : result);
  }
  throw new LiloError("empty-answer", "the model answered with nothing to show");
}

/** The answer the person stopped while it was written: the text shown is stored (no markers ran) and marked stopped. */
function stopped(s: AnswerServices, ctx: Turn, model: ChatModel, shown: string, notes: MemoryHit[]): TurnResult {
  s.logger.info("answer stopped while it was written; what was shown is kept", { userId: ctx.userId, chars: shown.length });
  const label = modelLabel(model);
  const stored = recordAnswer(s.replies, ctx, { text: shown, model: label, mood: null, recallAnswer: false, stopped: true });
  return { ok: true, stopped: true, text: shown, userMessageId: ctx.userMessage.id, answerMessageId: stored.id, model: label, notesUsed: notes };
}

/** The failed turn as its result: told to the user, the message marked failed (retryable when the error is). */
function failed(s: AnswerServices, ctx: Turn, err: unknown, notes: MemoryHit[]): TurnResult {
  s.logger.error("chat turn failed", { userId: ctx.userId, error: describeError(err) });
  s.replies.inbox.setReplyState(ctx.userMessage.id, "failed", s.replies.clock.now().toISOString());
  const empty = err instanceof LiloError && err.code === "empty-answer";
  const retryable = empty || (err instanceof ProviderError ? err.retryable : false);
  const code = err instanceof LiloError ? err.code : "internal";
  const t = TURN_TEXTS[s.persona.language];
  return {
    ok: false,
    text: empty ? t.emptyAnswer : t.failed(describeError(err, s.persona.language), retryable),
    userMessageId: ctx.userMessage.id,
    notesUsed: notes,
    error: { code, message: describeError(err), retryable },
  };
}

/**
 * Markers out (fetch markers answered by one follow-up call), then the answer
 * stored with its after-reply jobs (see recordAnswer). Undefined when nothing
 * is left to show: the caller asks again or reports it, nothing is stored.
 */
async function finish(
  s: AnswerServices,
  ctx: Turn,
  model: ChatModel,
  request: ChatRequest,
  raw: string,
  notes: MemoryHit[],
  reply: { toolsUsed: string[]; outside: string[] },
): Promise<TurnResult | undefined> {
  const recalled = reply.toolsUsed.includes("recall");
  const resolved = await s.answering.resolve(ctx, model, request, raw, reply.outside);
  const shown = resolved.text.trim();
  if (!shown) return undefined;
  const label = modelLabel(model);
  const effects = await storeMarkers(s, ctx, resolved.storeMarkers);
  // Read by the extraction's job state when the answer is recorded: nothing of outside text may become a memory.
  ctx.flags.outside = resolved.outside;
  const stored = recordAnswer(s.replies, ctx, { text: shown, model: label, mood: effects.mood ?? null, recallAnswer: resolved.recall || recalled });
  return {
    ok: true,
    text: shown,
    userMessageId: ctx.userMessage.id,
    answerMessageId: stored.id,
    model: label,
    ...(effects.mood ? { mood: effects.mood } : {}),
    ...(ctx.question ? { question: ctx.question } : {}),
    notesUsed: notes,
  };
}

/**
 * Executes the store markers. The model has answered by now, so a failure
 * here (embedder, vector index) is logged and the answer still goes out and
 * is stored; otherwise the user would be told the model failed and a retry
 * would store the markers that did succeed a second time.
 */
async function storeMarkers(s: AnswerServices, ctx: Turn, markers: Marker[]): Promise<{ mood?: Mood | undefined }> {
  try {
    const turn = { userId: ctx.userId, userMessageId: ctx.userMessage.id, conversationId: ctx.conversationId, now: s.replies.clock.now() };
    return await s.answering.store(turn, markers);
  } catch (err) {
    s.logger.error("markers of the answer could not all be stored", { userId: ctx.userId, error: describeError(err) });
    return {};
  }
}
