/**
 * One chat-log search for both the cheat sheet (automatic verbatim recall)
 * and [RECALL:]: the request taken apart (parse-recall.ts), then ranked by
 * the list of named signals in signals.ts. This file builds what those
 * signals search: the keyword side, the message vectors, the statement
 * form's vector, the concept step and the rows they read.
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Reranker } from "../../foundation/ports/reranker.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Role } from "../../foundation/store/chat-log.ts";
import type { ChatSearch, RankedMessage, RecallPassage } from "./search.ts";
import { MIN_SCAN, SCAN_FACTOR } from "./search.ts";
import type { MessageVectors } from "./message-vectors.ts";
import { ftsQuery } from "./keyword-query.ts";
import { raiseReplies } from "./reply-propagation.ts";
import { askedSide, type SpeakerNames } from "./speaker-preference.ts";
import { conceptHits, type ConceptStep } from "./concept-matches.ts";
import { statementForm } from "./statement-form.ts";
import { parseRecall, type ParsedRecall } from "./parse-recall.ts";
import { DEFAULT_CHAT_FUSION, rankBySignals, type ChatFusionTuning, type SignalSearch } from "./signals.ts";

export { parseRecall, type ParsedRecall } from "./parse-recall.ts";
export type { ChatFusionTuning } from "./signals.ts";

/** What a chat-log search needs; without `vectors` (or a query vector) the meaning lists are empty. */
export interface ChatRecallDeps {
  recall: ChatSearch;
  clock: Clock;
  timeZone: string;
  vectors?: MessageVectors | undefined;
  /** Signal weights replacing the defaults (signals.ts); 0 turns a signal off. */
  fusion?: Partial<ChatFusionTuning> | undefined;
  /** Floor on the cosine of messages found by meaning alone (the embedder's notes floor). */
  minSimilarity?: (() => number) | undefined;
  /** A cross-encoder reordering the sheet's best `topN` candidates before the budget cut (off when absent); a failure is logged, the fused order stays. */
  reranking?: { reranker: Reranker; topN: number; logger: Logger } | undefined;
  /** The names of the user and of the persona, for questions about what one of them said (speaker-preference.ts). */
  speakers?: ((userId: string) => SpeakerNames) | undefined;
  /** Messages naming instances of the question's category as one more fused list (concept-matches.ts; off when absent). */
  concepts?: ConceptStep | undefined;
  /** Embeds a query text: the question's statement form, one more vector per search (statement-form.ts; off when absent or when it gives none: recall by words only). */
  embed?: ((text: string) => Promise<Float32Array | undefined>) | undefined;
}

/** Options of one recall: whose log, how many, which conversation is running (never a hit), the query's vector. */
export interface ChatRecallOptions {
  userId: string;
  limit: number;
  excludeConversationId?: number | undefined;
  vector?: Float32Array | undefined;
}

/** Passages (hit with neighbours and local times) for free text, best first. */
export async function recallPassages(deps: ChatRecallDeps, text: string, o: ChatRecallOptions): Promise<(RecallPassage & { score: number })[]> {
  const p = parseRecall(text, deps.clock, deps.timeZone);
  const ranked = await rankParsed(deps, p, { ...o, limit: Math.max(MIN_SCAN, o.limit * SCAN_FACTOR) });
  return deps.recall.passages(ranked, o.limit, !(ftsQuery(p.terms) || p.dates.length));
}

/** The ranking behind `recallPassages`: single messages, best first (benchmarks score these). */
export async function rankMessages(deps: ChatRecallDeps, text: string, o: ChatRecallOptions): Promise<RankedMessage[]> {
  return (await rankParsed(deps, parseRecall(text, deps.clock, deps.timeZone), o)).slice(0, o.limit);
}

/** How deep each list looks before fusing. */
const FUSION_DEPTH = 50;

/** The first this many hits of a ranking raise the replies to their questions (deeper ones hardly reach a sheet). */
const REPLY_DEPTH = 20;

function rankParsed(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions): Promise<RankedMessage[]> {
  return rankBySignals(p, { ...DEFAULT_CHAT_FUSION, ...deps.fusion }, (filtered) => signalSearch(deps, filtered, o));
}

/** The searches the signals run for one request, the running conversation left out. */
function signalSearch(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions): SignalSearch {
  const depth = Math.max(FUSION_DEPTH, o.limit);
  const keep = passes(deps, p, o);
  const rowCache = new Map<number, { role: Role; text: string }>();
  const keyword = (terms = p.terms, match?: string) =>
    deps.recall.rank({
      ...p.query,
      terms,
      match,
      userId: o.userId,
      limit: depth,
      ...(o.excludeConversationId !== undefined ? { excludeConversationId: o.excludeConversationId } : {}),
    });
  return {
    p,
    hasWords: ftsQuery(p.terms) !== undefined,
    vector: o.vector,
    keyword,
    meaning: (vector) => (vector && deps.vectors ? meaningList(deps, deps.vectors, p, vector, o, depth) : Promise.resolve([])),
    statementVector: () => statementEmbedding(deps, p, o),
    conceptHits: () => conceptHits(deps.concepts, p.text, p.terms, (match) => keyword(p.terms, match)),
    askedSide: () => (deps.speakers ? askedSide(p.text, deps.speakers(o.userId)) : undefined),
    rows: (ids) => {
      const missing = ids.filter((id) => !rowCache.has(id));
      for (const [id, row] of deps.recall.rows(missing)) rowCache.set(id, row);
      return new Map(ids.flatMap((id) => (rowCache.has(id) ? [[id, rowCache.get(id)!] as const] : [])));
    },
    raiseReplies: (ranked, share) => raiseReplies(deps.recall, ranked, { depth: REPLY_DEPTH, share, keep }),
    inNamedDates: (iso) => (p.query.dates ?? []).some((r) => iso >= r.from && iso < r.to),
  };
}

/**
 * One list of the meaning side: the messages closest to `vector` that pass
 * the time filters and the floor. It embeds no message: the turn's
 * after-reply job fills the vectors, the CLI's search and the preview catch
 * up before they search (core/api/wiring/lilo.ts).
 */
async function meaningList(
  deps: ChatRecallDeps,
  vectors: MessageVectors,
  p: ParsedRecall,
  vector: Float32Array,
  o: ChatRecallOptions,
  depth: number,
): Promise<RankedMessage[]> {
  const f = p.query.filter;
  const floor = deps.minSimilarity?.() ?? 0;
  // The running conversation and the time range also go to the index, which leaves them out before ranking.
  const narrow = { excludeConversationId: o.excludeConversationId, from: f.from, to: f.to };
  const hits = (await vectors.search(o.userId, vector, depth, passes(deps, p, o), narrow)).filter((h) => h.score >= floor);
  return hits.map((h) => ({ ...h, inDateRange: false }));
}

/**
 * The vector of the question as the statement that would answer it
 * (statement-form.ts). Undefined without an embedder or for text that is
 * no question.
 */
async function statementEmbedding(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions): Promise<Float32Array | undefined> {
  if (!deps.embed) return undefined;
  const statement = statementForm(p.text, deps.speakers?.(o.userId) ?? {});
  return statement ? deps.embed(statement) : undefined;
}

/** Does a message pass the request's time filters and lie outside the running conversation? */
function passes(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions): (h: { conversationId: number; createdAt: string }) => boolean {
  const f = p.query.filter;
  return (h) =>
    h.conversationId !== o.excludeConversationId &&
    (f.from === undefined || h.createdAt >= f.from) &&
    (f.to === undefined || h.createdAt < f.to) &&
    (f.dayPart === undefined || deps.recall.inDayPart(h.createdAt, f.dayPart));
}
