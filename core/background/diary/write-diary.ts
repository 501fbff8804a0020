import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Memory } from "../../memory/memory.ts";
import type { ChatHistory } from "../../foundation/store/chat-history.ts";
import type { ChatLogMessage } from "../../foundation/store/chat-log.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Push, PushOutcome } from "../push/push.ts";
import type { TextRow } from "../../foundation/store/text-rows.ts";
import type { Persona } from "../../conversation/persona/persona.ts";
import type { FeatureContext } from "../feature-context.ts";
import { LiloError } from "../../foundation/errors.ts";
import { parseMarkers } from "../../conversation/markers/parse.ts";
import type { MarkerRegistry } from "../../conversation/markers/marker-registry.ts";
import { formatLocal, localDay } from "../../foundation/util/time.ts";
import { newestExchanges, renderExchanges, shortLocalTime } from "../../foundation/util/exchanges.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import { DIARY_PING, DIARY_SELF_LABEL, diaryPrompt } from "../prompts/diary.ts";

/** The collaborators of the diary; wired once in createLilo. */
export interface DiaryDeps {
  /** Stores the entry (row and vector) and reads the last entries and the day's thoughts. */
  memory: Memory;
  history: ChatHistory;
  models: ModelRegistry;
  /** Sends the opt-in diary ping. */
  push: Push;
  /** The markers understood, to strip them from the model's text (the registry resolved in createLilo). */
  markers: MarkerRegistry;
  /** Topics the user asked Lilo never to bring up: named in the prompt; an entry about one gets no ping. */
  boundaries?: BoundaryGuard | undefined;
}

/** The diary's configuration slice (`config.diary`); `ping` may change while Lilo runs. */
export type DiaryConfig = LiloConfig["diary"];

/** Everything writing the diary uses: collaborators, slice, persona, shared context. */
interface Diary {
  deps: DiaryDeps;
  config: DiaryConfig;
  persona: Persona;
  ctx: FeatureContext;
}

/** One diary entry as adapters and the CLI show it. */
export interface DiaryEntry {
  id: number;
  /** Local calendar day (YYYY-MM-DD). */
  day: string;
  text: string;
  createdAt: string;
}

/** Why no entry was written, though nothing failed. */
export type DiaryReason =
  /** No conversation in the window: Lilo invents no day. */
  | "no-conversation"
  /** Scheduled run, and nothing was said since the last entry (e.g. after "write now"). */
  | "nothing-new"
  /** The model's answer was empty once markers were stripped. */
  | "empty-answer";

/** The outcome of one diary run. */
export type DiaryResult =
  /** The entry was stored; `ping` is the outcome of the diary ping when one was attempted. */
  | { kind: "written"; entry: DiaryEntry; ping?: PushOutcome }
  | { kind: "skipped"; reason: DiaryReason }
  /** The model call or storing failed; `error` says why (English, secrets masked), `cause` is what was thrown: `describeError(cause, language)` tells a user. */
  | { kind: "failed"; error: string; cause: unknown };

/**
 * Writes one diary entry for a user (docs/spec.md §8) from the day's conversation,
 * the day's thoughts, the last entries and the profile — no general notes.
 * `force` ("write now") skips only the "nothing new since the last entry"
 * rule; without a conversation in the window there is never an entry.
 * Model failures throw; the facade turns them into `kind: "failed"`.
 */
export async function writeDiary(d: Diary, userId: string, opts: { force?: boolean } = {}): Promise<Exclude<DiaryResult, { kind: "failed" }>> {
  const { deps, config: c, ctx } = d;
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - c.windowHours * 3_600_000).toISOString();
  // A generous message cap: an exchange is rarely more than a few messages, and 24 h of chat stays small.
  const messages = deps.history.since(userId, since, Math.max(1, c.maxExchanges) * 6);
  // Lilo's own pushes (greetings, concerns, pings) are no conversation: a window of nothing else costs no call.
  const said = messages.filter((m) => !m.proactive);
  if (said.length === 0) return { kind: "skipped", reason: "no-conversation" };
  const rows = deps.memory.rows;
  const lastEntry = rows.diary.list(userId, 1)[0];
  if (!opts.force && lastEntry && !said.some((m) => m.createdAt > lastEntry.createdAt)) return { kind: "skipped", reason: "nothing-new" };

  const prompt = diaryPrompt(sheet(d, userId, now, since, messages));
  const reply = await deps.models.forRole("diary").complete({
    system: prompt.system,
    messages: [{ role: "user", content: prompt.user }],
    maxTokens: ctx.maxTokens,
    temperature: 0.8,
    purpose: "diary",
    userId,
  });
  // Markers have no effect in the diary; they must not land in it either.
  const text = parseMarkers(reply.text, deps.markers).text.trim();
  if (!text) return { kind: "skipped", reason: "empty-answer" };
  const day = localDay(now, ctx.timeZone);
  // Two quiet days may read alike, and neither may vanish: the diary is never deduplicated.
  const added = await deps.memory.add({ text, userId, store: "diary", allowDuplicate: true, extra: { day, provenance: "inference" } });
  const row = added.added ? rows.diary.get(added.id) : undefined;
  if (!row) throw new LiloError("diary", "The diary entry was not stored");
  ctx.logger.info("diary entry written", { userId, entryId: row.id, day });
  const entry = toDiaryEntry(row, ctx.timeZone);
  // The ping invites "what did you write?": not when the entry touches a boundary.
  const ping = deps.boundaries?.for(userId).about(text) ? undefined : await sendPing(d, userId);
  return { kind: "written", entry, ...(ping ? { ping } : {}) };
}

/** Selects and formats the material of the diary sheet. */
function sheet({ deps, config: c, persona, ctx }: Diary, userId: string, now: Date, since: string, messages: ChatLogMessage[]) {
  const lang = persona.language;
  const time = (iso: string) => shortLocalTime(iso, ctx.timeZone, lang);
  const name = persona.userName(userId);
  const thoughts = deps.memory.rows.thoughts
    .list(userId, c.thoughts)
    .filter((t) => t.createdAt >= since)
    .map((t) => ({ origin: String(t.extra.origin ?? "chat"), time: time(t.createdAt), text: t.text }));
  const lastEntries = deps.memory.rows.diary
    .list(userId, c.lastEntries)
    .reverse()
    .map((e) => ({ day: entryDay(e, ctx.timeZone), text: e.text }));
  return {
    language: lang,
    name: persona.name,
    userName: name,
    date: formatLocal(now, ctx.timeZone, lang),
    windowHours: c.windowHours,
    transcript: renderExchanges(newestExchanges(messages, c.maxExchanges), {
      userName: name,
      selfLabel: DIARY_SELF_LABEL[lang],
      userChars: c.userChars,
      liloChars: c.liloChars,
      time,
    }),
    thoughts,
    lastEntries,
    profile: ctx.profileText(userId),
    boundaries: deps.boundaries?.for(userId).list ?? [],
  };
}

/** A stored entry as adapters and the CLI show it. */
export function toDiaryEntry(row: TextRow, timeZone: string): DiaryEntry {
  return { id: row.id, day: entryDay(row, timeZone), text: row.text, createdAt: row.createdAt };
}

/** The day an entry belongs to: its stored day, else the local day it was written. */
export function entryDay(entry: TextRow, timeZone: string): string {
  return typeof entry.extra.day === "string" && entry.extra.day ? entry.extra.day : localDay(new Date(entry.createdAt), timeZone);
}

/**
 * The diary ping: delivered only to a chat the user opted in from; every
 * attempt is in the push log. Delivered, it is in the chat log as Lilo's own
 * message, so a reply ("Was hast du geschrieben?") is understood.
 */
async function sendPing(d: Diary, userId: string): Promise<PushOutcome | undefined> {
  // Sent (and logged) even without an opt-in: the push log then says "not-opted-in".
  if (!d.config.ping) return undefined;
  const text = DIARY_PING[d.persona.language];
  // Delivered (here or by the running bot, when queued from the CLI): stored as proactive.
  return d.deps.push.send(userId, { kind: "diary", text }, { after: { proactive: { model: null } } });
}
