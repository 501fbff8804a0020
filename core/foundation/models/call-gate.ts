import type { ChatModel, ChatRequest, ChatResponse } from "../ports/chat-model.ts";
import { LiloError } from "../errors.ts";

/**
 * The switch that ends every model call of one Lilo when it stops: a turn
 * still waiting for its model after the shutdown grace time must end before
 * the database closes, not write its answer into a closed one. A cancelled
 * call throws a LiloError "cancelled"; the turn then leaves its message
 * unanswered in the inbox, and the next start answers it.
 */
export class CallGate {
  private readonly stop = new AbortController();

  /** Has `cancel` been called? */
  get cancelled(): boolean {
    return this.stop.signal.aborted;
  }

  /** Aborts every call in flight and refuses every later one. */
  cancel(): void {
    this.stop.abort();
  }

  /** `model` with its calls ended by `cancel`, whether or not its provider honours an abort signal. */
  wrap(model: ChatModel): ChatModel {
    const stop = this.stop.signal;
    return {
      provider: model.provider,
      model: model.model,
      async complete(request: ChatRequest): Promise<ChatResponse> {
        if (stop.aborted) throw cancelledCall(model);
        const signal = request.signal ? AbortSignal.any([request.signal, stop]) : stop;
        let onAbort: (() => void) | undefined;
        const aborted = new Promise<never>((_, reject) => {
          onAbort = () => reject(cancelledCall(model));
          stop.addEventListener("abort", onAbort, { once: true });
        });
        try {
          return await Promise.race([model.complete({ ...request, signal }), aborted]);
        } catch (err) {
          if (stop.aborted) throw cancelledCall(model, err);
          throw err;
        } finally {
          stop.removeEventListener("abort", onAbort!);
        }
      },
    };
  }
}

function cancelledCall(model: ChatModel, cause?: unknown): LiloError<"cancelled"> {
  return new LiloError("cancelled", `the call to ${model.provider}:${model.model} was cancelled: Lilo is stopping`, cause === undefined ? {} : { cause });
}

/** Is `err` a model call ended by `CallGate.cancel`? */
export const isCancelled = (err: unknown): boolean => err instanceof LiloError && err.code === "cancelled";
