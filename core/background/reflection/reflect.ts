import type { Memory } from "../../memory/memory.ts";
import type { ChatHistory } from "../../foundation/store/chat-history.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Persona } from "../../conversation/persona/persona.ts";
import type { FeatureContext } from "../feature-context.ts";
import { parseMarkers } from "../../conversation/markers/parse.ts";
import type { MarkerRegistry } from "../../conversation/markers/marker-registry.ts";
import { formatLocal } from "../../foundation/util/time.ts";
import { newestExchanges, renderExchanges, shortLocalTime } from "../../foundation/util/exchanges.ts";
import { REFLECTION_SELF_LABEL, reflectionPrompt, reflectionQuestions } from "../prompts/reflection.ts";
import type { ConcernOutcome, Concerns, ReflectionConfig } from "./concerns.ts";
import { splitAnswers } from "./parse-reflection.ts";
import { copiedFromOutside, drawnOn, groundedAnswers, type ReflectionMaterial } from "./grounded-thought.ts";
import { provenanceColumns, type Provenance } from "../../foundation/store/provenance.ts";
import type { FeedItem } from "../../foundation/store/feeds.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import type { News } from "../../lookups/news.ts";

/** The collaborators of a reflection; wired once in createLilo. */
export interface ReflectionDeps {
  /** Stores the thought; finds notes and thoughts near the last user messages. */
  memory: Memory;
  history: ChatHistory;
  models: ModelRegistry;
  /** Keeps the id of the newest message the last reflection saw. */
  settings: SettingsStore;
  concerns: Concerns;
  /** The newest feed items go on the sheet when LILO_REFLECTION_NEWS is on; absent when off. */
  news?: { feed: News; items: number } | undefined;
  /** Topics the user asked Lilo never to bring up: named in the prompt, and no concern is raised about them. */
  boundaries?: BoundaryGuard | undefined;
  /** Similarity floor of related thoughts (`memory.thoughtsMinScore`). */
  thoughtsMinScore: number;
  /** The markers understood, to strip them from the model's text (the registry resolved in createLilo). */
  markers: MarkerRegistry;
}

/** Everything a reflection uses: collaborators, slice, persona, shared context. */
interface Reflection {
  deps: ReflectionDeps;
  config: ReflectionConfig;
  persona: Persona;
  ctx: FeatureContext;
}

/** Per-user setting: id of the newest message the last reflection saw. */
export const LAST_SEEN_KEY = "reflection.last_seen_message_id";

/** Why a reflection stored no thought, though nothing failed. */
export type ReflectionReason =
  /** The user never wrote anything. */
  | "no-conversation"
  /** Scheduled run and no message since the last reflection: thinking again would only repeat itself. */
  | "no-new-chats"
  /** Nothing left once markers and preamble were removed. */
  | "empty-answer"
  /** The thought was (nearly) the same as one already stored. */
  | "duplicate";

/** Concerns a reflection moved: the one it set, and a queued one it released. */
interface ReflectionConcerns {
  /** The [ANSPRECHEN:] concern of this thought, if it set one. */
  concern?: ConcernOutcome;
  /** A queued concern that became open at the start of this run. */
  released?: ConcernOutcome;
}

/** A stored thought: its answers, and the question of each. */
interface NewThought {
  id: number;
  text: string;
  questions: string[];
}

/** The outcome of one reflection. */
export type ReflectionResult =
  | ({ kind: "thought"; thought: NewThought } & ReflectionConcerns)
  /** No thought stored; a concern may still have been set or released. */
  | ({ kind: "skipped"; reason: ReflectionReason } & ReflectionConcerns)
  /** The model call or storing failed (`error` in English, secrets masked; `cause` for `describeError(cause, language)`); the next run tries again. */
  | { kind: "failed"; error: string; cause: unknown };

/**
 * One round of thinking (docs/spec.md §9). Runs only when there are messages newer
 * than the last one a reflection saw; `force` ("think now") ignores that.
 * The thought is stored with its questions in SQLite and only its answers in
 * the vector index (the fixed questions would make all thoughts look alike).
 * With LILO_REFLECTION_NEWS the newest feed items are material too (docs/spec.md §9's
 * web results; a search pre-call is not made).
 */
export async function reflect(r: Reflection, userId: string, opts: { force?: boolean } = {}): Promise<Exclude<ReflectionResult, { kind: "failed" }>> {
  const { deps, persona, ctx } = r;
  const released = await deps.concerns.releaseQueued(userId);
  const moved: ReflectionConcerns = released ? { released } : {};
  const latestId = deps.history.latestId(userId);
  if (latestId === undefined) return { kind: "skipped", reason: "no-conversation", ...moved };
  const seen = Number(deps.settings.get(LAST_SEEN_KEY, userId) ?? 0);
  if (!opts.force && latestId <= seen) return { kind: "skipped", reason: "no-new-chats", ...moved };

  const questions = reflectionQuestions(persona.language, persona.userName(userId));
  const feedItems = deps.news?.feed.newest(deps.news.items) ?? [];
  const material = await sheet(r, userId, questions, feedItems);
  const prompt = reflectionPrompt(material);
  const reply = await deps.models.forRole("reflection").complete({
    system: prompt.system,
    messages: [{ role: "user", content: prompt.user }],
    maxTokens: ctx.maxTokens,
    temperature: 0.7,
    purpose: "reflection",
    userId,
  });
  const parsed = parseMarkers(reply.text, deps.markers);
  // Words copied from a feed item write no thought and raise no concern.
  const grounding = ownMaterial(material, persona.name);
  const concerns = parsed.markers.filter((m) => m.name === "ANSPRECHEN" && !copiedFromOutside(m.payload, grounding));
  if (concerns.length > 1) ctx.logger.info("a reflection set several concerns; only the last one counts", { userId, count: concerns.length });
  const { answers, dropped } = groundedAnswers(splitAnswers(parsed.text, questions), grounding);
  if (dropped) ctx.logger.warn("reflection sentences copied from a feed item were not stored", { userId, dropped });
  // A thought that draws on a feed item was informed by that lookup: its origin names the item.
  const read = drawnOn(answers.text, material.news, { questions, ignore: grounding.ignore }).map((i) => feedItems[i]!);
  const origin: Provenance = read.length ? { kind: "lookup", ref: read.map(itemOrigin).join(", ") } : { kind: "inference" };
  const stored = await storeThought(deps, userId, answers, origin);
  // Seen only once the thought is stored: a failed call or a failed store leaves the messages for the next run.
  deps.settings.set(LAST_SEEN_KEY, String(latestId), ctx.clock.now().toISOString(), userId);
  // A concern about a boundary is never raised: the user asked Lilo not to bring the topic up.
  const fence = deps.boundaries?.for(userId);
  const concern = concerns.filter((c) => !fence?.about(c.payload)).at(-1);
  if (concern) moved.concern = await deps.concerns.add(userId, concern.payload);
  ctx.logger.info("reflection done", {
    userId,
    ...(stored.kind === "thought" ? { thoughtId: stored.thought.id } : { reason: stored.reason }),
    concern: moved.concern?.status,
  });
  return { ...stored, ...moved };
}

/** Stores the answers as one thought (SQLite with its questions, the vector index with the answers only). */
async function storeThought(
  deps: ReflectionDeps,
  userId: string,
  answers: { text: string; questions: string[] },
  origin: Provenance,
): Promise<{ kind: "thought"; thought: NewThought } | { kind: "skipped"; reason: "empty-answer" | "duplicate" }> {
  if (!answers.text) return { kind: "skipped", reason: "empty-answer" };
  const added = await deps.memory.add({
    text: answers.text,
    userId,
    store: "thoughts",
    extra: { origin: "reflection", questions: JSON.stringify(answers.questions), ...provenanceColumns(origin) },
  });
  return added.added
    ? { kind: "thought", thought: { id: added.id, text: answers.text, questions: answers.questions } }
    : { kind: "skipped", reason: "duplicate" };
}

/** A feed item as a thought's origin: its address, or its feed and title when it has none. */
const itemOrigin = (n: FeedItem) => n.url ?? `${n.feedTitle ? `${n.feedTitle}: ` : ""}${n.title}`;

/** Selects the material: profile, recent exchanges, notes and thoughts near the last user messages, and the feed items given. */
async function sheet({ deps, config: r, persona, ctx }: Reflection, userId: string, questions: string[], feedItems: FeedItem[]) {
  const { memory } = deps;
  const lang = persona.language;
  const name = persona.userName(userId);
  const time = (iso: string) => shortLocalTime(iso, ctx.timeZone, lang);
  const exchanges = newestExchanges(deps.history.latest(userId, Math.max(1, r.exchanges) * 6), r.exchanges);
  const query = deps.history.latestUserTexts(userId, 5).join("\n");
  const lastThoughts = memory.rows.thoughts.list(userId, r.lastThoughts);
  const lastIds = new Set(lastThoughts.map((t) => t.id));
  let notes: string[] = [];
  let related: string[] = [];
  // Without the embedding model (recall by words only) the material is the profile and the exchanges.
  const vector = query.trim() ? await memory.vectorFor(query) : undefined;
  if (vector) {
    const [n, t] = await Promise.all([
      memory.searchVector(vector, { userId, store: "notes", k: r.notes, minScore: memory.thresholds.notesMinScore }),
      // Ask for a few more, since the latest thoughts are shown on their own already.
      memory.searchVector(vector, { userId, store: "thoughts", k: r.relatedThoughts + lastThoughts.length, minScore: deps.thoughtsMinScore }),
    ]);
    notes = n.map((h) => h.text);
    related = t
      .filter((h) => !lastIds.has(h.id))
      .slice(0, r.relatedThoughts)
      .map((h) => h.text);
  }
  return {
    language: lang,
    name: persona.name,
    userName: name,
    date: formatLocal(ctx.clock.now(), ctx.timeZone, lang),
    profile: ctx.profileText(userId),
    exchangeCount: exchanges.length,
    transcript: renderExchanges(exchanges, {
      userName: name,
      selfLabel: REFLECTION_SELF_LABEL[lang],
      userChars: r.userChars,
      liloChars: r.liloChars,
      time,
    }),
    notes,
    relatedThoughts: related,
    lastThoughts: lastThoughts.map((t) => ({ time: time(t.createdAt), text: t.text })),
    questions,
    boundaries: deps.boundaries?.for(userId).list ?? [],
    news: feedItems.map((n) => `${n.feedTitle ? `${n.feedTitle}: ` : ""}${n.title}${n.summary ? ` — ${n.summary.slice(0, 300)}` : ""}`),
  };
}

/** The sheet's feed items apart from everything else it holds, for the grounding check. */
function ownMaterial(m: Awaited<ReturnType<typeof sheet>>, assistantName: string): ReflectionMaterial {
  return {
    own: [
      m.profile ?? "",
      m.transcript,
      ...m.notes,
      ...m.relatedThoughts,
      ...m.lastThoughts.map((t) => t.text),
      ...m.questions,
      ...m.boundaries.map((b) => b.text),
    ],
    outside: m.news,
    ignore: [m.userName, assistantName],
  };
}
