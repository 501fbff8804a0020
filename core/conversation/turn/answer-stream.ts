/**
 * The answer as it is written, for an adapter that shows it early (a
 * Telegram draft, a Matrix message it edits, the terminal). The chat model
 * of the turn is wrapped: each chat call streams, its pieces pass the
 * marker filter, and what may be shown goes to the adapter's listener. A
 * later call of the same turn (the next tool round, the follow-up answer
 * after a lookup marker) replaces the text shown before it, so its first
 * update says `restarted`. The final text is still the turn's result: what
 * was streamed is a preview of it, never stored.
 */
import type { ChatModel, ChatRequest, ChatResponse, CallPurpose } from "../../foundation/ports/chat-model.ts";
import type { MarkerRegistry } from "../markers/marker-registry.ts";
import { MarkerStreamFilter } from "../markers/stream-filter.ts";

/** One update of the visible answer. */
export interface StreamUpdate {
  /** The whole visible text of the answer being written. */
  text: string;
  /** What this update added; the whole text when `restarted`. */
  delta: string;
  /** The text shown before is replaced: a new model call of the turn began writing. */
  restarted: boolean;
}

/** What an adapter hands the turn to see the answer as it is written. */
export interface AnswerStream {
  /** Called whenever more of the answer may be shown; must return quickly (throttle on the adapter's side). */
  onText(update: StreamUpdate): void;
  /** Aborting it cancels the model call: what was shown so far becomes the answer, marked stopped. */
  signal?: AbortSignal | undefined;
}

/** The calls whose text a person reads: the answer, its tool rounds and the follow-up after lookup markers. */
const SHOWN: ReadonlySet<CallPurpose | undefined> = new Set<CallPurpose | undefined>(["chat", "tool-round", "lookup-follow-up"]);

/** The turn's model, streaming into `sink`. */
export interface StreamingModel {
  model: ChatModel;
  /** The text shown last (empty before the first visible piece). */
  shown(): string;
}

/** Wraps `model` so its answer calls stream their visible text into `sink`; JSON and background calls pass through unchanged. */
export function streamingModel(model: ChatModel, registry: MarkerRegistry, sink: AnswerStream): StreamingModel {
  let shown = "";
  let phase = 0;
  let shownPhase = 0;
  const emit = (text: string, delta: string) => {
    const restarted = shownPhase !== phase && shown !== "";
    shownPhase = phase;
    shown = text;
    sink.onText({ text, delta: restarted ? text : delta, restarted });
  };
  return {
    shown: () => shown,
    model: {
      provider: model.provider,
      model: model.model,
      async complete(request: ChatRequest): Promise<ChatResponse> {
        if (request.json || request.schema || !SHOWN.has(request.purpose)) return model.complete(request);
        phase++;
        const filter = new MarkerStreamFilter(registry);
        // After a lookup marker the follow-up answer replaces this one: nothing more of it is shown.
        let frozen = false;
        const onDelta = (piece: string) => {
          if (frozen) return;
          const added = filter.push(piece);
          frozen = filter.markers.some((m) => m.kind === "fetch");
          if (added) emit(filter.text, added);
        };
        const response = await model.complete({ ...request, onDelta, ...(sink.signal ? { signal: sink.signal } : {}) });
        if (!frozen && !response.toolCalls?.length) {
          const { rest } = filter.end();
          if (rest) emit(filter.text, rest);
        }
        return response;
      },
    },
  };
}
