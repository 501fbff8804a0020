import { describe, expect, it } from "vitest";
import { CallGate, isCancelled } from "../../../core/foundation/models/call-gate.ts";
import type { ChatModel, ChatRequest } from "../../../core/foundation/ports/chat-model.ts";

/** A model whose calls never answer and that ignores the abort signal (as a stuck local engine would). */
const stuckModel = (seen: ChatRequest[]): ChatModel => ({
  provider: "fake",
  model: "stuck",
  complete: (request) => (seen.push(request), new Promise(() => undefined)),
});

describe("CallGate", () => {
  it("cancel ends a call in flight with a cancelled error even when the model ignores the abort signal, and aborts the signal it was given", async () => {
    const seen: ChatRequest[] = [];
    const gate = new CallGate();
    const call = gate.wrap(stuckModel(seen)).complete({ system: "", messages: [{ role: "user", content: "hi" }] });
    gate.cancel();
    const err: unknown = await call.catch((e: unknown) => e);
    expect(isCancelled(err)).toBe(true);
    expect(seen[0]!.signal?.aborted).toBe(true);
  });

  it("after cancel a new call is refused without reaching the model", async () => {
    const seen: ChatRequest[] = [];
    const gate = new CallGate();
    gate.cancel();
    const err: unknown = await gate
      .wrap(stuckModel(seen))
      .complete({ system: "", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(isCancelled(err)).toBe(true);
    expect(seen).toEqual([]);
  });
});
