import type { Memory } from "../memory/memory.ts";
import type { ChatHistory } from "../store/chat-history.ts";
import type { ProfileStore } from "../store/profile.ts";
import type { ModelRegistry } from "../models/registry.ts";
import { parseMarkers } from "../markers/parse.ts";
import { renderProfile } from "../turn/cheat-sheet.ts";
import { userName } from "../persona/persona.ts";
import { formatLocal } from "../util/time.ts";
import { newestExchanges, renderExchanges, shortLocalTime } from "../util/exchanges.ts";
import { REFLECTION_SELF_LABEL, reflectionPrompt, reflectionQuestions } from "../prompts/reflection.ts";
import { addConcern, releaseQueuedConcern, type ConcernDeps, type ConcernOutcome } from "./concerns.ts";
import { splitAnswers } from "./parse-reflection.ts";
import type { News } from "../news/news.ts";

/** What a reflection needs; wired once in createLilo. */
export interface ReflectionDeps extends ConcernDeps {
  memory: Memory;
  history: ChatHistory;
  profile: ProfileStore;
  models: ModelRegistry;
  /** The news feeds; their newest items go on the sheet when LILO_REFLECTION_NEWS is on. */
  news?: News;
}

/** Per-user setting: id of the newest message the last reflection saw. */
export const LAST_SEEN_KEY = "reflection.last_seen_message_id";

/** Why a reflection stored no thought. */
export type ReflectionReason =
  /** The user never wrote anything. */
  | "no-conversation"
  /** Scheduled run and no message since the last reflection: thinking again would only repeat itself. */
  | "no-new-chats"
  /** Nothing left once markers and preamble were removed. */
  | "empty-answer"
  /** The thought was (nearly) the same as one already stored. */
  | "duplicate"
  /** The model call or storing failed (see `error`). */
  | "failed";

/** The outcome of one reflection. */
export interface ReflectionResult {
  thought?: { id: number; text: string; questions: string[] };
  /** The [ANSPRECHEN:] concern of this thought, if it set one. */
  concern?: ConcernOutcome;
  /** A queued concern that became open at the start of this run. */
  released?: ConcernOutcome;
  reason?: ReflectionReason;
  error?: string;
}

/**
 * One round of thinking (SPEC §9). Runs only when there are messages newer
 * than the last one a reflection saw; `force` ("think now") ignores that.
 * The thought is stored with its questions in SQLite and only its answers in
 * the vector index (the fixed questions would make all thoughts look alike).
 * With LILO_REFLECTION_NEWS the newest feed items are material too (SPEC §9's
 * web results; a search pre-call is not made).
 */
export async function reflect(deps: ReflectionDeps, userId: string, opts: { force?: boolean } = {}): Promise<ReflectionResult> {
  const released = await releaseQueuedConcern(deps, userId);
  const out: ReflectionResult = released ? { released } : {};
  const latestId = deps.history.latestId(userId);
  if (latestId === undefined) return { ...out, reason: "no-conversation" };
  const seen = Number(deps.settings.get(LAST_SEEN_KEY, userId) ?? 0);
  if (!opts.force && latestId <= seen) return { ...out, reason: "no-new-chats" };

  const { config } = deps;
  const questions = reflectionQuestions(config.persona.language, userName(config, userId));
  const prompt = reflectionPrompt(await sheet(deps, userId, questions));
  const reply = await deps.models.forRole("reflection").complete({
    system: prompt.system,
    messages: [{ role: "user", content: prompt.user }],
    maxTokens: config.modelCall.maxTokens,
    temperature: 0.7,
  });
  const parsed = parseMarkers(reply.text);
  const concerns = parsed.markers.filter((m) => m.name === "ANSPRECHEN");
  if (concerns.length > 1) deps.logger.info("a reflection set several concerns; only the last one counts", { userId, count: concerns.length });
  const answers = splitAnswers(parsed.text, questions);
  if (!answers.text) out.reason = "empty-answer";
  else {
    const added = await deps.memory.add({
      text: answers.text,
      userId,
      store: "thoughts",
      extra: { origin: "reflection", questions: JSON.stringify(answers.questions) },
    });
    if (added.added) out.thought = { id: added.id, text: answers.text, questions: answers.questions };
    else out.reason = "duplicate";
  }
  // Seen only once the thought is stored: a failed call or a failed store leaves the messages for the next run.
  deps.settings.set(LAST_SEEN_KEY, String(latestId), deps.clock.now().toISOString(), userId);
  const concern = concerns.at(-1);
  if (concern) out.concern = await addConcern(deps, userId, concern.payload);
  deps.logger.info("reflection done", { userId, thoughtId: out.thought?.id, concern: out.concern?.status, reason: out.reason });
  return out;
}

/** Selects the material: profile, recent exchanges, notes and thoughts near the last user messages. */
async function sheet(deps: ReflectionDeps, userId: string, questions: string[]) {
  const { config, memory } = deps;
  const r = config.reflection;
  const lang = config.persona.language;
  const name = userName(config, userId);
  const time = (iso: string) => shortLocalTime(iso, config.timezone, lang);
  const exchanges = newestExchanges(deps.history.latest(userId, Math.max(1, r.exchanges) * 6), r.exchanges);
  const query = deps.history.latestUserTexts(userId, 5).join("\n");
  const lastThoughts = memory.rows.thoughts.list(userId, r.lastThoughts);
  const lastIds = new Set(lastThoughts.map((t) => t.id));
  let notes: string[] = [];
  let related: string[] = [];
  if (query.trim()) {
    const vector = await memory.embed(query);
    const [n, t] = await Promise.all([
      memory.searchVector(vector, { userId, store: "notes", k: r.notes, minScore: memory.thresholds.notesMinScore }),
      // Ask for a few more, since the latest thoughts are shown on their own already.
      memory.searchVector(vector, { userId, store: "thoughts", k: r.relatedThoughts + lastThoughts.length, minScore: config.memory.thoughtsMinScore }),
    ]);
    notes = n.map((h) => h.text);
    related = t.filter((h) => !lastIds.has(h.id)).slice(0, r.relatedThoughts).map((h) => h.text);
  }
  return {
    language: lang,
    name: config.persona.name,
    userName: name,
    date: formatLocal(deps.clock.now(), config.timezone, lang),
    profile: renderProfile(deps.profile.list(userId), config.memory.profileMaxChars),
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
    news: config.lookup.reflectionNews.enabled && deps.news ? deps.news.newest(config.lookup.reflectionNews.items).map((n) => `${n.feedTitle ? `${n.feedTitle}: ` : ""}${n.title}${n.summary ? ` — ${n.summary.slice(0, 300)}` : ""}`) : [],
  };
}
