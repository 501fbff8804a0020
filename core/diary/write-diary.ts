import type { Memory } from "../memory/memory.ts";
import type { ChatHistory } from "../store/chat-history.ts";
import type { ChatLogMessage } from "../store/chat-log.ts";
import type { ProfileStore } from "../store/profile.ts";
import type { ModelRegistry } from "../models/registry.ts";
import type { Push, PushOutcome } from "../push/push.ts";
import type { TextRow } from "../store/text-rows.ts";
import { LiloError } from "../errors.ts";
import type { ProactiveDeps } from "../push/proactive.ts";
import { parseMarkers } from "../markers/parse.ts";
import { renderProfile } from "../turn/cheat-sheet.ts";
import { userName } from "../persona/persona.ts";
import { formatLocal, localDay } from "../util/time.ts";
import { newestExchanges, renderExchanges, shortLocalTime } from "../util/exchanges.ts";
import { DIARY_PING, DIARY_SELF_LABEL, diaryPrompt } from "../prompts/diary.ts";

/** What writing the diary needs; wired once in createLilo. */
export interface DiaryDeps extends ProactiveDeps {
  memory: Memory;
  history: ChatHistory;
  profile: ProfileStore;
  models: ModelRegistry;
  push: Push;
}

/** Why no entry was written. */
export type DiaryReason =
  /** No conversation in the window: Lilo invents no day. */
  | "no-conversation"
  /** Scheduled run, and nothing was said since the last entry (e.g. after "write now"). */
  | "nothing-new"
  /** The model's answer was empty once markers were stripped. */
  | "empty-answer"
  /** The model call or storing failed (see `error`). */
  | "failed";

/** The outcome of one diary run. */
export interface DiaryResult {
  written: boolean;
  entryId?: number;
  text?: string;
  /** Local calendar day of the entry (YYYY-MM-DD). */
  day?: string;
  /** Outcome of the diary ping, when one was attempted. */
  ping?: PushOutcome;
  reason?: DiaryReason;
  error?: string;
}

/**
 * Writes one diary entry for a user (SPEC §8) from the day's conversation,
 * the day's thoughts, the last entries and the profile — no general notes.
 * `force` ("write now") skips only the "nothing new since the last entry"
 * rule; without a conversation in the window there is never an entry.
 * Model failures throw; the facade turns them into `reason: "failed"`.
 */
export async function writeDiary(deps: DiaryDeps, userId: string, opts: { force?: boolean } = {}): Promise<DiaryResult> {
  const { config } = deps;
  const c = config.diary;
  const now = deps.clock.now();
  const since = new Date(now.getTime() - c.windowHours * 3_600_000).toISOString();
  // A generous message cap: an exchange is rarely more than a few messages, and 24 h of chat stays small.
  const messages = deps.history.since(userId, since, Math.max(1, c.maxExchanges) * 6);
  if (messages.length === 0) return { written: false, reason: "no-conversation" };
  const rows = deps.memory.rows;
  const lastEntry = rows.diary.list(userId, 1)[0];
  if (!opts.force && lastEntry && !messages.some((m) => m.createdAt > lastEntry.createdAt)) return { written: false, reason: "nothing-new" };

  const prompt = diaryPrompt(sheet(deps, userId, now, since, messages));
  const reply = await deps.models.forRole("diary").complete({
    system: prompt.system,
    messages: [{ role: "user", content: prompt.user }],
    maxTokens: config.modelCall.maxTokens,
    temperature: 0.8,
  });
  // Markers have no effect in the diary; they must not land in it either.
  const text = parseMarkers(reply.text).text.trim();
  if (!text) return { written: false, reason: "empty-answer" };
  const day = localDay(now, config.timezone);
  // Two quiet days may read alike, and neither may vanish: the diary is never deduplicated.
  const added = await deps.memory.add({ text, userId, store: "diary", allowDuplicate: true, extra: { day } });
  if (!added.added) throw new LiloError("diary", "The diary entry was not stored");
  deps.logger.info("diary entry written", { userId, entryId: added.id, day });
  const ping = await sendPing(deps, userId);
  return { written: true, entryId: added.id, text, day, ...(ping ? { ping } : {}) };
}

/** Selects and formats the material of the diary sheet. */
function sheet(deps: DiaryDeps, userId: string, now: Date, since: string, messages: ChatLogMessage[]) {
  const { config } = deps;
  const c = config.diary;
  const lang = config.persona.language;
  const time = (iso: string) => shortLocalTime(iso, config.timezone, lang);
  const name = userName(config, userId);
  const thoughts = deps.memory.rows.thoughts
    .list(userId, c.thoughts)
    .filter((t) => t.createdAt >= since)
    .map((t) => ({ origin: String(t.extra.origin ?? "chat"), time: time(t.createdAt), text: t.text }));
  const lastEntries = deps.memory.rows.diary
    .list(userId, c.lastEntries)
    .reverse()
    .map((e) => ({ day: entryDay(e, config.timezone), text: e.text }));
  return {
    language: lang,
    name: config.persona.name,
    userName: name,
    date: formatLocal(now, config.timezone, lang),
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
    profile: renderProfile(deps.profile.list(userId), config.memory.profileMaxChars),
  };
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
async function sendPing(deps: DiaryDeps, userId: string): Promise<PushOutcome | undefined> {
  // Sent (and logged) even without an opt-in: the push log then says "not-opted-in".
  if (!deps.config.diary.ping) return undefined;
  const text = DIARY_PING[deps.config.persona.language];
  // Delivered (here or by the running bot, when queued from the CLI): stored as proactive.
  return deps.push.send(userId, { kind: "diary", text }, { after: { proactive: { model: null } } });
}
