/**
 * The follow-up call for fetch markers (docs/spec.md §4 step 5, §5): every fetch
 * marker of the first answer is executed, and ONE more call gets the
 * conversation, the first answer (markers stripped) and all results. The
 * seed answered only the first marker and left markers visible when nothing
 * was found; here every marker is answered and every marker is stripped.
 */
import type { Persona } from "../persona/persona.ts";
import type { ChatModel, ChatRequest } from "../../foundation/ports/chat-model.ts";
import type { Marker } from "../markers/marker.ts";
import { parseMarkers, type ParsedAnswer } from "../markers/parse.ts";
import { executeFetchMarkers, type FetchDeps } from "../markers/fetch.ts";
import { fetchResultsMessage, RECALL_TEXTS } from "../prompts/recall.ts";
import { describeError } from "../../foundation/errors.ts";
import { lookupBody } from "../prompts/lookups.ts";
import { groundedMarkers } from "../markers/grounded.ts";

/** The answer to show and the store markers to execute. */
export interface ResolvedAnswer {
  /** Final text without markers; may be empty (the turn shows its placeholder). */
  text: string;
  /** Store markers of the first answer, then new ones of the follow-up. */
  storeMarkers: Marker[];
  /** The answer was written with chat-log passages ([RECALL:]): later searches rank it below originals. */
  recall: boolean;
  /** Outside text (pages, search results, feed items) the answer was written with: its extraction may take nothing from it. */
  outside: string[];
}

/** What the follow-up needs besides fetching. */
interface FollowUpDeps extends FetchDeps {
  userName: string;
  persona: Persona;
}

/**
 * Resolves the fetch markers of `first`, if any, with one follow-up call.
 * If that call fails, the first answer (stripped) is delivered and the
 * failure logged; fetch markers in the follow-up are stripped and ignored.
 */
export async function resolveFetchMarkers(
  deps: FollowUpDeps,
  ctx: { userId: string; conversationId: number },
  model: ChatModel,
  request: ChatRequest,
  first: ParsedAnswer,
  toolOutside: string[] = [],
): Promise<ResolvedAnswer> {
  const userTexts = request.messages.filter((m) => m.role === "user").map((m) => m.content);
  const ground = (markers: Marker[], outside: string[]) => {
    const g = groundedMarkers(markers, userTexts, outside, [deps.userName, deps.persona.name]);
    if (g.dropped.length)
      deps.logger.warn("store markers taken from outside text were not executed", { userId: ctx.userId, markers: g.dropped.map((m) => m.name) });
    return g.kept;
  };
  // With native tools the lookups ran before this text was written: all of its store markers are checked.
  const firstStore = ground(
    first.markers.filter((m) => m.kind === "store"),
    toolOutside,
  );
  const fetches = first.markers.filter((m) => m.kind === "fetch");
  if (!fetches.length) return { text: first.text, storeMarkers: firstStore, recall: false, outside: toolOutside };
  const recall = fetches.some((m) => {
    const def = deps.markers.get(m.name);
    return def?.kind === "fetch" && def.quotesChatLog === true;
  });
  const { persona } = deps;
  const outcomes = await executeFetchMarkers(deps, ctx, fetches);
  const outside = [
    ...toolOutside,
    ...outcomes.flatMap((o) => ("kind" in o && o.kind !== "recall" && o.kind !== "diary" ? [lookupBody(o, persona.language, deps.timeZone) ?? ""] : [])),
  ].filter(Boolean);
  const results = fetchResultsMessage({
    language: persona.language,
    userName: deps.userName,
    assistantName: persona.name,
    timeZone: deps.timeZone,
    outcomes,
  });
  const messages = [
    ...request.messages,
    // Providers reject an empty assistant message; the first answer may have been markers only.
    { role: "assistant" as const, content: first.text || "…" },
    { role: "user" as const, content: results },
  ];
  deps.logger.info("answering fetch markers in one follow-up call", {
    userId: ctx.userId,
    markers: outcomes.map((o) => `${o.marker.name}:${o.status}`),
  });
  let second: ParsedAnswer;
  try {
    second = parseMarkers((await model.complete({ ...request, messages, purpose: "lookup-follow-up" })).text, deps.markers);
  } catch (err) {
    deps.logger.error("follow-up call for fetch markers failed; delivering the first answer", { userId: ctx.userId, error: describeError(err) });
    return { text: first.text || RECALL_TEXTS[persona.language].lookupFailed, storeMarkers: firstStore, recall, outside };
  }
  const ignored = second.markers.filter((m) => m.kind === "fetch").map((m) => m.name);
  if (ignored.length) deps.logger.debug("fetch markers in the follow-up answer stripped without effect", { markers: ignored });
  // The model often repeats a store marker it wrote in its first answer; keep it once.
  const key = (m: Marker) => `${m.name}\u0000${m.payload.toLowerCase()}`;
  const known = new Set(firstStore.map(key));
  // Written after the results: a store marker must be grounded in the user's own words, not in a page or feed item.
  const fresh = ground(
    second.markers.filter((m) => m.kind === "store" && !known.has(key(m))),
    outside,
  );
  return { text: second.text || first.text, storeMarkers: [...firstStore, ...fresh], recall, outside };
}
