/**
 * The chat model with everything an answer does through it: native tools,
 * fetch markers answered by one follow-up call, store markers executed. The
 * answer middleware (answer.ts) decides the order and what is stored; this
 * service knows which model, which lookups and where markers save.
 */
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ChatModel, ChatRequest } from "../../foundation/ports/chat-model.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Persona } from "../persona/persona.ts";
import type { FetchDeps } from "../markers/fetch.ts";
import type { Marker, MarkerTurn, StoreMarkerServices } from "../markers/marker.ts";
import type { MarkerRegistry } from "../markers/marker-registry.ts";
import type { ToolCalling } from "../../lookups/tool-calling.ts";
import { parseMarkers } from "../markers/parse.ts";
import { executeStoreMarkers, type MarkerEffects } from "../markers/execute.ts";
import { completeWithTools } from "../tools/tool-loop.ts";
import { resolveFetchMarkers, type ResolvedAnswer } from "./follow-up.ts";

/** Where an answer's model, lookups and markers come from. */
interface AnsweringSources {
  models: ModelRegistry;
  /** What fetch markers and native tools look things up with (and the markers understood). */
  fetching: FetchDeps;
  /** Which chat models get native tool calls. */
  tools?: ToolCalling | undefined;
  /** What store markers save into. */
  storing: StoreMarkerServices;
  persona: Persona;
  logger: Logger;
}

/** The chat model and its markers, for one answer. */
export interface Answering {
  /** The chat model of this turn. */
  model(): ChatModel;
  /** The markers understood (what the stream filter holds back). */
  readonly markers: MarkerRegistry;
  /** The model's answer to the request, with native tools where the model has them; `toolsUsed` names the tools that ran. */
  complete(
    ctx: { userId: string; conversationId: number },
    model: ChatModel,
    request: ChatRequest,
  ): Promise<{ text: string; toolsUsed: string[]; outside: string[] }>;
  /** The raw answer's markers parsed and its fetch markers answered by one follow-up call; `outside`: what native lookup tools brought in. */
  resolve(ctx: { userId: string; conversationId: number }, model: ChatModel, request: ChatRequest, raw: string, outside?: string[]): Promise<ResolvedAnswer>;
  /** Executes store markers once the answer is final. */
  store(turn: MarkerTurn, markers: Marker[]): Promise<MarkerEffects>;
}

/** The answering service from its sources. */
export function createAnswering(s: AnsweringSources): Answering {
  const lookups = (userId: string) => ({ ...s.fetching, tools: s.tools, userName: s.persona.userName(userId), persona: s.persona });
  return {
    model: () => s.models.forRole("chat"),
    markers: s.fetching.markers,
    complete: (ctx, model, request) => completeWithTools(lookups(ctx.userId), ctx, model, request),
    resolve: (ctx, model, request, raw, outside) =>
      resolveFetchMarkers(lookups(ctx.userId), ctx, model, request, parseMarkers(raw, s.fetching.markers), outside),
    store: (turn, markers) => executeStoreMarkers({ ...s.storing, logger: s.logger }, turn, markers, s.fetching.markers),
  };
}
