import { describeError } from "../errors.ts";
import { entryDay, writeDiary, type DiaryDeps, type DiaryResult } from "./write-diary.ts";

/** One diary entry as adapters and the CLI show it. */
export interface DiaryEntry {
  id: number;
  /** Local calendar day (YYYY-MM-DD). */
  day: string;
  text: string;
  createdAt: string;
}

/** The diary as Lilo exposes it (`lilo.diary`). */
export interface DiaryApi {
  /** "Write diary now" (/diary, `lilo diary write`): writes even right after another entry, never without a conversation. */
  writeNow(userId: string): Promise<DiaryResult>;
  /** The nightly run: also skips when nothing was said since the last entry. */
  run(userId: string): Promise<DiaryResult>;
  /** Newest entries first. */
  list(userId: string, limit?: number): DiaryEntry[];
}

/**
 * Wraps `writeDiary` so callers (adapters, jobs, CLI) get a result instead
 * of an exception: a failed model call is logged and reported as
 * `reason: "failed"` with the error message.
 */
export function diaryApi(deps: DiaryDeps): DiaryApi {
  const attempt = async (userId: string, force: boolean): Promise<DiaryResult> => {
    try {
      return await writeDiary(deps, userId, { force });
    } catch (err) {
      deps.logger.error("diary entry failed", { userId, error: describeError(err) });
      return { written: false, reason: "failed", error: describeError(err) };
    }
  };
  return {
    writeNow: (userId) => attempt(userId, true),
    run: (userId) => attempt(userId, false),
    list: (userId, limit = 20) =>
      deps.memory.rows.diary.list(userId, limit).map((e) => ({ id: e.id, day: entryDay(e, deps.config.timezone), text: e.text, createdAt: e.createdAt })),
  };
}
