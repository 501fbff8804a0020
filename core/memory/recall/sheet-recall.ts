/**
 * One chat-log search for both the cheat sheet (automatic verbatim recall)
 * and [RECALL:]: relative time words are hard filters (docs/spec.md §5.1), explicit
 * dates filter to their hits when they have any, and the remaining words are ranked by bm25
 * over each message and its neighbouring turns, fused by weighted
 * reciprocal rank with the messages closest in meaning.
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Reranker } from "../../foundation/ports/reranker.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ChatSearch, RankedMessage, RecallPassage, RecallQuery } from "./search.ts";
import { MIN_SCAN, SCAN_FACTOR } from "./search.ts";
import type { MessageVectors } from "./message-vectors.ts";
import { parseTimeWords, foldWord } from "./time-words.ts";
import { parseExplicitDates, type DateRange } from "./explicit-dates.ts";
import { ftsQuery, searchWords } from "./keyword-query.ts";
import { lowerWhere, reciprocalRankFusion } from "../fusion.ts";
import { questionParts } from "./query-parts.ts";
import { withPartQuota } from "./part-quota.ts";
import { matchedWords } from "./trim-around.ts";
import { raiseReplies, type ReplyRaise } from "./reply-propagation.ts";
import { askedSide, type SpeakerNames } from "./speaker-preference.ts";
import { askedKind, holdsKind } from "./answer-cues.ts";
import { conceptList, type ConceptStep } from "./concept-matches.ts";
import { statementForm } from "./statement-form.ts";

/** A free-text recall request taken apart. */
export interface ParsedRecall {
  terms: string[];
  query: Omit<RecallQuery, "userId" | "limit">;
  timeWords: string[];
  dates: DateRange[];
  /** The text as written (its capitals name things: query-parts.ts). */
  text: string;
}

/** Splits free text into search words, relative-time filters and explicit dates. */
export function parseRecall(text: string, clock: Clock, timeZone: string): ParsedRecall {
  const dates = parseExplicitDates(text, clock, timeZone);
  const dateWords = new Set(dates.flatMap((d) => d.text.split(/[\s.,]+/)).filter(Boolean));
  const parsed = parseTimeWords(text, clock, timeZone);
  const terms = parsed.terms.filter((t) => !dateWords.has(foldWord(t)));
  return { text, terms, timeWords: parsed.timeWords, dates, query: { terms, filter: parsed.filter, dates: dates.map(({ from, to }) => ({ from, to })) } };
}

/** Weights of the chat-log fusion, tuned on the LoCoMo dev split (`npm run bench:recall`). */
export interface ChatFusionTuning {
  rrfK: number;
  keywordWeight: number;
  denseWeight: number;
  /** Pseudo-relevance feedback: words shared by the top `prfDocs` hits search again (0 = off). */
  prfDocs: number;
  prfTerms: number;
  prfWeight: number;
  /** Keyword hits below this bm25 share only common words: noise unless meaning also finds them. */
  minKeywordScore: number;
  /** The other side's reply to a ranked question gets this share of the question's score (0 = off; reply-propagation.ts). */
  replyShare: number;
  /** A question naming one speaker: the other side's messages keep this share of their score (1 = off; speaker-preference.ts). */
  otherSideShare: number;
  /** A question asking for a kind of answer ("when"): messages without one keep this share of their score (1 = off; answer-cues.ts). */
  answerCueShare: number;
  /** A question about several things: each part's best hits the first ten must hold, placed after the first hit if missing (0 = off; part-quota.ts). */
  partQuota: number;
  /** The meaning side's second query, the question as the statement that answers it ("I partake in activities"), weighs this much in the fusion (0 = off; statement-form.ts). */
  statementWeight: number;
}

export const DEFAULT_CHAT_FUSION: ChatFusionTuning = {
  rrfK: 20,
  keywordWeight: 3,
  denseWeight: 1,
  prfDocs: 0,
  prfTerms: 5,
  prfWeight: 1,
  minKeywordScore: 0,
  replyShare: 1,
  otherSideShare: 0.7,
  answerCueShare: 0.8,
  partQuota: 1,
  statementWeight: 2,
};

/** What a chat-log search needs; without `vectors` (or a query vector) it ranks by words alone. */
export interface ChatRecallDeps {
  recall: ChatSearch;
  clock: Clock;
  timeZone: string;
  vectors?: MessageVectors | undefined;
  fusion?: Partial<ChatFusionTuning> | undefined;
  /** Floor on the cosine of messages found by meaning alone (the embedder's notes floor). */
  minSimilarity?: (() => number) | undefined;
  /** A cross-encoder reordering the sheet's best `topN` candidates before the budget cut (off when absent); a failure is logged, the fused order stays. */
  reranking?: { reranker: Reranker; topN: number; logger: Logger } | undefined;
  /** The names of the user and of the persona, for questions about what one of them said (speaker-preference.ts). */
  speakers?: ((userId: string) => SpeakerNames) | undefined;
  /** Messages naming instances of the question's category as one more fused list (concept-matches.ts; off when absent). */
  concepts?: ConceptStep | undefined;
  /** Embeds a query text: the question's statement form, one more vector per search (statement-form.ts; off when absent). */
  embed?: ((text: string) => Promise<Float32Array>) | undefined;
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

/** How deep each side looks before fusing. */
const FUSION_DEPTH = 50;

/** The head of a ranking where each part of a question about several things should appear: the first ten, what a sheet's passages start from. */
const PART_WINDOW = 10;

/** The first this many hits of a ranking raise the replies to their questions (deeper ones hardly reach a sheet). */
const REPLY_DEPTH = 20;

/**
 * The whole question's ranking; for a question naming several things, each
 * thing's own keyword ranking (with the shared words), whose best hit joins
 * the head where the whole ranking's head lacks it (part-quota.ts).
 */
async function rankParsed(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions): Promise<RankedMessage[]> {
  const whole = await rankWhole(deps, p, o);
  const searchable = new Set(p.terms);
  const parts = questionParts(p.text, (w) => searchable.has(w));
  if (parts.length < 2 || !whole.length) return whole;
  const t = { ...DEFAULT_CHAT_FUSION, ...deps.fusion };
  const depth = Math.max(FUSION_DEPTH, o.limit);
  const byId = new Map(whole.map((h) => [h.id, h]));
  const partLists = parts.map((part) => {
    const hits = keywordRank(deps, p, o, depth, [part.query]);
    // A part's own evidence names its thing; the shared words alone would bring the other part's hits again.
    const texts = deps.recall.texts(hits.map((h) => h.id));
    const thing = searchWords([part.thing]);
    const own = hits.filter((h) => matchedWords(texts.get(h.id) ?? "", thing).size > 0);
    for (const h of own) if (!byId.has(h.id)) byId.set(h.id, h);
    return own.map((h) => h.id);
  });
  const named = whole.some((h) => h.inDateRange);
  return withPartQuota(
    whole.map((h) => h.id),
    partLists,
    { quota: t.partQuota, window: PART_WINDOW },
  )
    .map((id) => byId.get(id)!)
    .filter((h) => !named || h.inDateRange);
}

/** The keyword side for the parsed request (or other `terms` under its filters), the running conversation left out. */
function keywordRank(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions, depth: number, terms: string[] = p.terms): RankedMessage[] {
  return deps.recall.rank({
    ...p.query,
    terms,
    userId: o.userId,
    limit: depth,
    ...(o.excludeConversationId !== undefined ? { excludeConversationId: o.excludeConversationId } : {}),
  });
}

async function rankWhole(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions): Promise<RankedMessage[]> {
  const depth = Math.max(FUSION_DEPTH, o.limit);
  const t = { ...DEFAULT_CHAT_FUSION, ...deps.fusion };
  const keyword = keywordRank(deps, p, o, depth);
  // Time-only requests ("was war gestern?") list that time; meaning needs words to mean something.
  if (!ftsQuery(p.terms)) return onNamedDates(keyword);
  const replies = { depth: REPLY_DEPTH, share: t.replyShare, keep: passes(deps, p, o) };
  if (!deps.vectors || !o.vector) return onNamedDates(raiseReplies(deps.recall, keyword, replies));
  const vectors = deps.vectors;
  const meaningOf = (vector: Float32Array) => meaningList(deps, vectors, p, { ...o, vector }, depth, replies);
  // The statement's embedding (a model call) runs while the question's own vector is searched.
  const [meaning, statementVector] = await Promise.all([meaningOf(o.vector), statementEmbedding(deps, p, o, t)]);
  const stated = statementVector ? await meaningOf(statementVector) : [];
  const inRange = (iso: string) => (p.query.dates ?? []).some((r) => iso >= r.from && iso < r.to);
  // Each side puts a question's answer after the question, so the fusion sees it on both; the fused list again below.
  const words = raiseReplies(deps.recall, keyword, replies);
  const lists = [
    { ids: words.filter((h) => h.score >= t.minKeywordScore || h.inDateRange).map((h) => h.id), weight: t.keywordWeight },
    { ids: meaning.map((h) => h.id), weight: t.denseWeight },
    ...(stated.length ? [{ ids: stated.map((h) => h.id), weight: t.statementWeight }] : []),
  ];
  const concept = conceptList(deps.concepts, p.text, p.terms, (match) => keywordRank(deps, { ...p, query: { ...p.query, match } }, o, depth));
  if (concept) lists.push(concept);
  let fused = reciprocalRankFusion(lists, t.rrfK);
  let feedback: RankedMessage[] = [];
  if (t.prfDocs > 0) {
    feedback = expandedSearch(
      deps,
      p,
      o,
      fused.slice(0, t.prfDocs).map((f) => f.id),
      t.prfTerms,
      depth,
    );
    fused = reciprocalRankFusion([...lists, { ids: feedback.map((h) => h.id), weight: t.prfWeight }], t.rrfK);
  }
  const meta = new Map<number, { conversationId: number; createdAt: string }>(
    [...(concept?.hits ?? []), ...feedback, ...stated, ...meaning, ...words].map((h) => [h.id, h]),
  );
  const ranked = fused
    .map((x) => {
      const m = meta.get(x.id)!;
      return { id: x.id, conversationId: m.conversationId, createdAt: m.createdAt, score: x.score, inDateRange: inRange(m.createdAt) };
    })
    .sort((a, b) => Number(b.inDateRange) - Number(a.inDateRange) || b.score - a.score);
  return onNamedDates(preferred(deps, p, o, raiseReplies(deps.recall, ranked, replies), t));
}

/**
 * The fused ranking with what the question's form says applied: a named
 * speaker's own turns before the other side's (speaker-preference.ts), for
 * a "when" question the turns that say when (answer-cues.ts).
 */
function preferred(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions, ranked: RankedMessage[], t: ChatFusionTuning): RankedMessage[] {
  const side = deps.speakers ? askedSide(p.text, deps.speakers(o.userId)) : undefined;
  const kind = askedKind(p.text);
  if (!side && !kind) return ranked;
  // One read of the ranked rows serves both steps.
  const rows = deps.recall.rows(ranked.map((h) => h.id));
  let out = ranked;
  if (side) out = lowerWhere(out, (id) => rows.has(id) && rows.get(id)!.role !== side, t.otherSideShare);
  if (kind) out = lowerWhere(out, (id) => rows.has(id) && !holdsKind(kind, rows.get(id)!.text), t.answerCueShare);
  return out;
}

/**
 * One list of the meaning side: the messages closest to `o.vector` that pass
 * the time filters and the floor, each question's reply raised after it. It
 * embeds no message: the turn's after-reply job fills the vectors, the CLI's
 * search and the preview catch up before they search (core/api/create-lilo.ts).
 */
async function meaningList(
  deps: ChatRecallDeps,
  vectors: MessageVectors,
  p: ParsedRecall,
  o: ChatRecallOptions & { vector: Float32Array },
  depth: number,
  replies: ReplyRaise,
): Promise<RankedMessage[]> {
  const f = p.query.filter;
  const floor = deps.minSimilarity?.() ?? 0;
  const keep = passes(deps, p, o);
  // The running conversation and the time range also go to the index, which leaves them out before ranking.
  const narrow = { excludeConversationId: o.excludeConversationId, from: f.from, to: f.to };
  const hits = (await vectors.search(o.userId, o.vector, depth, keep, narrow)).filter((h) => h.score >= floor);
  return raiseReplies(
    deps.recall,
    hits.map((h) => ({ ...h, inDateRange: false })),
    replies,
  );
}

/**
 * The vector of the question as the statement that would answer it
 * (statement-form.ts), for a second meaning list: stored turns are
 * first-person statements, a question is not. Undefined when off, without
 * an embedder, or for text that is no question.
 */
async function statementEmbedding(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions, t: ChatFusionTuning): Promise<Float32Array | undefined> {
  if (!(t.statementWeight > 0) || !deps.embed) return undefined;
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

/** Searches again with the words the top hits share (pseudo-relevance feedback). */
function expandedSearch(deps: ChatRecallDeps, p: ParsedRecall, o: ChatRecallOptions, top: number[], terms: number, depth: number): RankedMessage[] {
  const known = new Set(searchWords(p.terms));
  const counts = new Map<string, number>();
  for (const text of deps.recall.texts(top).values()) {
    for (const w of new Set(searchWords([text]))) if (!known.has(w) && w.length >= 4) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const extra = [...counts]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1])
    .slice(0, terms)
    .map(([w]) => w);
  if (!extra.length) return [];
  return keywordRank(deps, p, o, depth, [...p.terms, ...extra]);
}

/** A named date with hits filters to them ("am 3. Mai" means that day); without any, the ranking stands. */
function onNamedDates(ranked: RankedMessage[]): RankedMessage[] {
  return ranked.some((r) => r.inDateRange) ? ranked.filter((r) => r.inDateRange) : ranked;
}
