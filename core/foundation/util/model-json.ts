import type { z } from "zod";
import type { ChatMessage, ChatModel } from "../ports/chat-model.ts";

export type JsonParse<T> = { ok: true; value: T; repaired: boolean } | { ok: false; problem: string };

/**
 * Reads a JSON answer of a model and validates it with zod. Models like to
 * wrap JSON in code fences or a sentence; that is repaired by cutting out the
 * outermost object. Anything else is reported, never thrown.
 */
export function parseModelJson<T>(raw: string, schema: z.ZodType<T>): JsonParse<T> {
  const direct = tryParse(raw.trim(), schema);
  if (direct.ok) return { ok: true, value: direct.value, repaired: false };
  const start = raw.indexOf("{");
  const end = raw.lastIndexOf("}");
  if (start >= 0 && end > start) {
    const cut = tryParse(raw.slice(start, end + 1), schema);
    if (cut.ok) return { ok: true, value: cut.value, repaired: true };
    return { ok: false, problem: cut.problem };
  }
  return { ok: false, problem: direct.problem };
}

function tryParse<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `not JSON: ${(err as Error).message}` };
  }
  const res = schema.safeParse(data);
  if (res.success) return { ok: true, value: res.data };
  const first = res.error.issues[0];
  return { ok: false, problem: `wrong shape at ${first?.path.join(".") || "top level"}: ${first?.message ?? "invalid"}` };
}

/**
 * One model call that must answer with JSON of `schema`: deterministic
 * (temperature 0), JSON mode where the provider has it, validated. Returns
 * the raw text too, so a caller can show it back to the model on a retry.
 */
export async function completeJson<T>(
  model: ChatModel,
  req: { system: string; messages: ChatMessage[]; schema: z.ZodType<T>; maxTokens: number; grammar?: z.ZodType },
): Promise<JsonParse<T> & { raw: string }> {
  // `grammar` may be stricter than `schema`: what a constraining provider may write, while the parser stays tolerant.
  const schema = req.grammar ?? req.schema;
  const res = await model.complete({ system: req.system, messages: req.messages, json: true, schema, maxTokens: req.maxTokens, temperature: 0 });
  return { ...parseModelJson(res.text, req.schema), raw: res.text };
}

/**
 * What went wrong with a model's JSON answer, for a log line: the kind and
 * the path ("not JSON", "wrong shape at facts.0") without the parser's
 * detail, which may quote the answer and with it the user's words.
 */
export function problemKind(problem: string): string {
  return (problem.split(":")[0] ?? "").trim().slice(0, 80);
}
