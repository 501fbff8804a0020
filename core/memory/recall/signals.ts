/**
 * The chat-log search as one list of named signals, read top to bottom:
 * filters narrow the request, lists are fused by weighted reciprocal rank,
 * re-weighting steps move messages within the fused ranking, and the head
 * step makes room for each part of a question about several things. Each
 * signal's weight is a tuning knob (`tuning.chatFusion`, `BENCH_TUNING`);
 * a weight of 0 turns the signal off. What each one catches and what it is
 * worth on the LoCoMo dev split: docs/recall.md (`npm run bench:recall -- --ablate`).
 */
import type { Role } from "../../foundation/store/chat-log.ts";
import type { RankedMessage } from "./search.ts";
import type { ParsedRecall } from "./parse-recall.ts";
import { lowerWhere, reciprocalRankFusion } from "../fusion.ts";
import { askedKind, holdsKind } from "./answer-cues.ts";
import { questionParts } from "./query-parts.ts";
import { withPartQuota } from "./part-quota.ts";
import { matchedWords } from "./trim-around.ts";
import { searchWords } from "./keyword-query.ts";

/** What the signals read of one search: the request and the searches behind it (built by sheet-recall.ts). */
export interface SignalSearch {
  /** The request, with the filters that are off already dropped. */
  p: ParsedRecall;
  /** The request has words to search, not only a time. */
  hasWords: boolean;
  /** Keyword ranking of the request's words (or of other terms, or of a ready MATCH expression) under the request's filters. */
  keyword(terms?: string[], match?: string): RankedMessage[];
  /** The messages closest in meaning to a vector under the request's filters and the similarity floor; [] without one or without message vectors. */
  meaning(vector: Float32Array | undefined): Promise<RankedMessage[]>;
  /** The question's own vector. */
  vector: Float32Array | undefined;
  /** The vector of the question as the statement that answers it (statement-form.ts); undefined when it has none. */
  statementVector(): Promise<Float32Array | undefined>;
  /** The messages naming instances of the question's category (concept-matches.ts); [] when it names none. */
  conceptHits(): RankedMessage[];
  /** The side (user or persona) the question asks about (speaker-preference.ts). */
  askedSide(): Role | undefined;
  /** Role and text of messages by id (forgotten ones left out). */
  rows(ids: number[]): Map<number, { role: Role; text: string }>;
  /** The ranking with the replies to its first questions raised to `share` × the question's score (reply-propagation.ts). */
  raiseReplies(ranked: RankedMessage[], share: number): RankedMessage[];
  /** Does an instant lie in a date range the request names? */
  inNamedDates(iso: string): boolean;
}

interface Named {
  name: string;
  /** The signal's strength (its kind says in what unit); 0 turns it off. */
  weight: number;
}

/** Narrows the request; off, the request is searched without this filter. */
interface FilterSignal extends Named {
  kind: "filter";
  drop(p: ParsedRecall): ParsedRecall;
}

/** One ranked list for the fusion; its weight is its share of the fused score. `withReplies`: the replies step also runs on the list. */
interface ListSignal extends Named {
  kind: "list";
  withReplies: boolean;
  list(s: SignalSearch): RankedMessage[] | Promise<RankedMessage[]>;
}

/** Moves messages within the fused ranking; its weight is the share of a score it moves. */
interface ReweightSignal extends Named {
  kind: "reweight";
  apply(s: SignalSearch, ranked: RankedMessage[], weight: number): RankedMessage[];
}

/** Reorders the head of the final ranking; its weight is how many places it may claim there. */
interface HeadSignal extends Named {
  kind: "head";
  apply(s: SignalSearch, ranked: RankedMessage[], weight: number): RankedMessage[];
}

type Signal = FilterSignal | ListSignal | ReweightSignal | HeadSignal;

/** The head of a ranking where each part of a question about several things should appear: the first ten, what a sheet's passages start from. */
const PART_WINDOW = 10;

/** The signals in the order they act. */
export const SIGNALS = [
  /** Relative time words ("gestern", "last week", "abends") keep only messages of that time (docs/spec.md §5.1). */
  { name: "timeWords", kind: "filter", weight: 1, drop: (p) => ({ ...p, query: { ...p.query, filter: {} } }) },
  /** A named date ("am 3. Mai", "in October 2023") ranks its own messages first and, when it has any, keeps only them. */
  { name: "dates", kind: "filter", weight: 1, drop: (p) => ({ ...p, dates: [], query: { ...p.query, dates: [] } }) },
  /**
   * The question's words: bm25 over each message and, weighted lower, its
   * neighbouring turns; names, places and rare words are where it is strongest.
   */
  { name: "words", kind: "list", weight: 3, withReplies: true, list: (s) => s.keyword() },
  /** The messages closest in meaning to the question (the message vectors): the same thing said in other words. */
  { name: "meaning", kind: "list", weight: 1, withReplies: true, list: (s) => s.meaning(s.vector) },
  /**
   * The messages closest in meaning to the question turned into the
   * statement that answers it ("I partake in activities"): stored turns are
   * first-person statements, a question is not.
   */
  { name: "statementForm", kind: "list", weight: 2, withReplies: true, list: async (s) => s.meaning(await s.statementVector()) },
  /**
   * The messages naming instances of the question's category ("taekwondo"
   * for "What martial arts …", from WordNet): a word match the lexicon made,
   * less sure than the question's own words, surer than nearness in meaning,
   * so a third of the fused weight.
   */
  { name: "concepts", kind: "list", weight: 3, withReplies: false, list: (s) => s.conceptHits() },
  /**
   * The other side's reply to a ranked question takes `weight` × the
   * question's score and ranks right after it: the answer is in the reply,
   * which often shares no word with the search. Runs on each list marked
   * `withReplies` and on the fused ranking.
   */
  { name: "replies", kind: "reweight", weight: 1, apply: (s, ranked, share) => s.raiseReplies(ranked, share) },
  /** A question about one speaker ("What did Anna paint?", "What did you recommend?"): the other side's messages lose `weight` of their score. */
  {
    name: "speaker",
    kind: "reweight",
    weight: 0.3,
    apply: (s, ranked, weight) => {
      const side = s.askedSide();
      return side ? lowerRows(s, ranked, weight, (row) => row.role !== side) : ranked;
    },
  },
  /** A "when" question: messages that say no time ("last Friday", "im Mai", "2019") lose `weight` of their score. */
  {
    name: "answerCues",
    kind: "reweight",
    weight: 0.2,
    apply: (s, ranked, weight) => {
      const kind = askedKind(s.p.text);
      return kind ? lowerRows(s, ranked, weight, (row) => !holdsKind(kind, row.text)) : ranked;
    },
  },
  /**
   * A question about several things ("What did Tom and Lisa paint?"): each
   * part's best `weight` keyword hits join the first ten where they are
   * missing (part-quota.ts).
   */
  { name: "parts", kind: "head", weight: 1, apply: (s, ranked, quota) => withParts(s, ranked, quota) },
] as const satisfies readonly Signal[];

/** A signal's name, the key of its weight in `tuning.chatFusion`. */
export type SignalName = (typeof SIGNALS)[number]["name"];

/** The weight of every signal, and `rrfK`, which damps the head of each fused list (60 in the literature). */
export type ChatFusionTuning = Record<SignalName, number> & { rrfK: number };

export const DEFAULT_CHAT_FUSION: ChatFusionTuning = {
  rrfK: 20,
  ...(Object.fromEntries(SIGNALS.map((s) => [s.name, s.weight])) as Record<SignalName, number>),
};

type Of<K extends Signal["kind"]> = Extract<(typeof SIGNALS)[number], { kind: K }>;
const ofKind = <K extends Signal["kind"]>(kind: K): Of<K>[] => SIGNALS.filter((s): s is Of<K> => s.kind === kind);
const FILTERS = ofKind("filter");
const LISTS = ofKind("list");
const REWEIGHTS = ofKind("reweight");
const HEADS = ofKind("head");

/**
 * Runs the signals on a parsed request: the filters that are off dropped,
 * the lists fused, the re-weighting steps in order, a named date's hits
 * kept when it has any, the head steps last. `open` builds the searches for
 * the request as filtered. A request without words lists its time.
 */
export async function rankBySignals(parsed: ParsedRecall, tuning: ChatFusionTuning, open: (p: ParsedRecall) => SignalSearch): Promise<RankedMessage[]> {
  const s = open(FILTERS.reduce((p, f) => (tuning[f.name] > 0 ? p : f.drop(p)), parsed));
  let ranked = s.hasWords ? await fuse(s, tuning) : s.keyword();
  if (s.hasWords) for (const r of REWEIGHTS) if (tuning[r.name] > 0) ranked = r.apply(s, ranked, tuning[r.name]);
  ranked = onNamedDates(ranked);
  for (const h of HEADS) if (tuning[h.name] > 0) ranked = h.apply(s, ranked, tuning[h.name]);
  return ranked;
}

/** The lists that are on, fused by weighted reciprocal rank; a named date's messages first. */
async function fuse(s: SignalSearch, tuning: ChatFusionTuning): Promise<RankedMessage[]> {
  const on = LISTS.filter((l) => tuning[l.name] > 0);
  // Each list puts a question's answer after the question, so the fusion sees it on every side.
  const lists = await Promise.all(on.map(async (l) => (l.withReplies ? s.raiseReplies(await l.list(s), tuning.replies) : l.list(s))));
  const fused = reciprocalRankFusion(
    lists.map((hits, i) => ({ ids: hits.map((h) => h.id), weight: tuning[on[i]!.name] })),
    tuning.rrfK,
  );
  const meta = new Map(lists.flat().map((h) => [h.id, h]));
  return fused
    .map((x) => {
      const m = meta.get(x.id)!;
      return { id: x.id, conversationId: m.conversationId, createdAt: m.createdAt, score: x.score, inDateRange: s.inNamedDates(m.createdAt) };
    })
    .sort((a, b) => Number(b.inDateRange) - Number(a.inDateRange) || b.score - a.score);
}

/** The ranking with the messages `lower` picks at 1 − `weight` of their score. */
function lowerRows(s: SignalSearch, ranked: RankedMessage[], weight: number, lower: (row: { role: Role; text: string }) => boolean): RankedMessage[] {
  const rows = s.rows(ranked.map((h) => h.id));
  return lowerWhere(ranked, (id) => rows.has(id) && lower(rows.get(id)!), 1 - weight);
}

/** Each part's own keyword hits (those naming its thing: the shared words alone would bring the other part's hits again) placed by part-quota.ts. */
function withParts(s: SignalSearch, ranked: RankedMessage[], quota: number): RankedMessage[] {
  const searchable = new Set(s.p.terms);
  const parts = questionParts(s.p.text, (w) => searchable.has(w));
  if (parts.length < 2 || !ranked.length) return ranked;
  const byId = new Map(ranked.map((h) => [h.id, h]));
  const partLists = parts.map((part) => {
    const hits = s.keyword([part.query]);
    const rows = s.rows(hits.map((h) => h.id));
    const thing = searchWords([part.thing]);
    const own = hits.filter((h) => matchedWords(rows.get(h.id)?.text ?? "", thing).size > 0);
    for (const h of own) if (!byId.has(h.id)) byId.set(h.id, h);
    return own.map((h) => h.id);
  });
  const named = ranked.some((h) => h.inDateRange);
  return withPartQuota(
    ranked.map((h) => h.id),
    partLists,
    { quota, window: PART_WINDOW },
  )
    .map((id) => byId.get(id)!)
    .filter((h) => !named || h.inDateRange);
}

/** A named date with hits filters to them ("am 3. Mai" means that day); without any, the ranking stands. */
function onNamedDates(ranked: RankedMessage[]): RankedMessage[] {
  return ranked.some((r) => r.inDateRange) ? ranked.filter((r) => r.inDateRange) : ranked;
}
