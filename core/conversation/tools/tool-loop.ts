/**
 * Native tool calls in the chat turn (docs/spec.md §4 step 4, §5). The model gets
 * the lookup tools; each round its calls are answered with the same text
 * the marker path produces, and it is asked again. After `rounds` rounds
 * the last call forbids tools, so a turn costs at most rounds + 1 chat
 * calls; a turn without a tool call costs one, as with markers.
 */
import type { ChatModel, ChatRequest, ChatResponse, ToolCall, ToolResult } from "../../foundation/ports/chat-model.ts";
import { parseMarkers } from "../markers/parse.ts";
import { answeredFetchMarkers } from "../markers/available.ts";
import { executeFetchMarkers, type FetchDeps } from "../markers/fetch.ts";
import { fetchOutcomeText } from "../prompts/recall.ts";
import { markerInstructions } from "../prompts/markers.ts";
import { describeError } from "../../foundation/errors.ts";
import type { ToolCalling } from "../../lookups/tool-calling.ts";
import type { Persona } from "../persona/persona.ts";
import { toolPayload, toolSpecs } from "./tool-specs.ts";
import { memorySearch } from "./memory-tool.ts";

/** What the loop needs: fetching (the marker path) and the tool settings. */
interface ToolLoopDeps extends FetchDeps {
  tools?: ToolCalling | undefined;
  userName: string;
  persona: Persona;
}

/** Answers `request` with native tools when the model has them, else with one plain call. */
export async function completeWithTools(
  deps: ToolLoopDeps,
  ctx: { userId: string; conversationId: number },
  model: ChatModel,
  request: ChatRequest,
): Promise<ChatResponse & { toolsUsed: string[]; outside: string[] }> {
  const used: string[] = [];
  const outside: string[] = [];
  const res = await toolLoop(deps, ctx, model, request, used, outside);
  return { ...res, toolsUsed: used, outside };
}

/** The loop behind completeWithTools; `used` collects the names of the tools that ran. */
async function toolLoop(
  deps: ToolLoopDeps,
  ctx: { userId: string; conversationId: number },
  model: ChatModel,
  request: ChatRequest,
  used: string[],
  outside: string[],
): Promise<ChatResponse> {
  const tools = deps.tools;
  if (!tools?.isNative(model)) return model.complete(request);
  const specs = toolSpecs(deps.markers, deps.lookups?.offered() ?? []);
  const messages = [...request.messages];
  // Store markers the model wrote next to its tool calls ([EMOTION:], [THOUGHT:]) still count.
  const earlier: string[] = [];
  const withEarlier = (res: ChatResponse): ChatResponse => (earlier.length ? { ...res, text: [res.text, ...earlier].join("\n") } : res);
  for (let round = 0; ; round++) {
    const last = round >= tools.rounds;
    let res: ChatResponse;
    try {
      res = await model.complete({
        ...request,
        messages,
        tools: specs,
        toolChoice: last ? "none" : "auto",
        ...(round > 0 ? { purpose: "tool-round" as const } : {}),
      });
    } catch (err) {
      if (round > 0 || !tools.learnRefusal(model, err)) throw err;
      // This model has no tools after all: this turn and later ones use the fetch markers.
      return model.complete({ ...request, system: `${request.system}\n\n${markerInstructions(deps.persona.language, fetchMarkers(deps), deps.markers)}` });
    }
    if (!res.toolCalls?.length) return withEarlier(res);
    if (last) {
      deps.logger.warn("tool calls after the last allowed round ignored", { userId: ctx.userId, calls: res.toolCalls.map((c) => c.name) });
      return withEarlier(res);
    }
    earlier.push(
      ...parseMarkers(res.text, deps.markers)
        .markers.filter((m) => m.kind === "store")
        .map((m) => `[${m.name}: ${m.payload}]`),
    );
    used.push(...res.toolCalls.map((c) => c.name));
    const results = await Promise.all(res.toolCalls.map((c) => runTool(deps, ctx, c)));
    // What web search, fetch_url and news brought in is outside text: nothing of it may become a memory.
    res.toolCalls.forEach((c, i) => {
      const called = toolPayload(deps.markers, c.name, c.input);
      if (called.ok && called.marker?.lookup && !results[i]!.isError) outside.push(results[i]!.content);
    });
    deps.logger.info("native tool round", { userId: ctx.userId, round: round + 1, tools: res.toolCalls.map((c) => c.name) });
    messages.push({ role: "assistant", content: res.text, toolCalls: res.toolCalls }, { role: "user", content: "", toolResults: results });
  }
}

/** The fetch markers this setup answers: those of every chat (RECALL, DIARY) always, the lookups when configured. */
function fetchMarkers(deps: Pick<FetchDeps, "lookups" | "markers">): string[] {
  return answeredFetchMarkers(deps.markers, deps.lookups?.offered() ?? []).map((d) => d.name);
}

/** One tool call answered with the marker path's text; bad arguments and failures are told to the model. */
async function runTool(deps: ToolLoopDeps, ctx: { userId: string; conversationId: number }, call: ToolCall): Promise<ToolResult> {
  const parsed = toolPayload(deps.markers, call.name, call.input);
  if (!parsed.ok) return { callId: call.id, content: parsed.error, isError: true };
  const texts = { language: deps.persona.language, userName: deps.userName, assistantName: deps.persona.name, timeZone: deps.timeZone };
  try {
    if (!parsed.marker) {
      const content = await memorySearch(
        { memory: deps.memory, k: deps.limits.notesTopK, language: texts.language, timeZone: texts.timeZone },
        ctx.userId,
        parsed.payload,
      );
      return { callId: call.id, content };
    }
    const [outcome] = await executeFetchMarkers(deps, ctx, [{ name: parsed.marker.name, payload: parsed.payload, kind: "fetch" }]);
    return {
      callId: call.id,
      content: fetchOutcomeText(texts, outcome!),
      ...(outcome!.status === "failed" || outcome!.status === "refused" ? { isError: true } : {}),
    };
  } catch (err) {
    deps.logger.error("tool call failed", { userId: ctx.userId, tool: call.name, error: describeError(err) });
    return { callId: call.id, content: `${call.name} failed: ${describeError(err)}`, isError: true };
  }
}
