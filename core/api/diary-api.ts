import { describeError } from "../foundation/errors.ts";
import type { Persona } from "../conversation/persona/persona.ts";
import type { FeatureContext } from "../background/feature-context.ts";
import { toDiaryEntry, writeDiary, type DiaryConfig, type DiaryDeps, type DiaryEntry, type DiaryResult } from "../background/diary/write-diary.ts";

export type { DiaryEntry } from "../background/diary/write-diary.ts";

/** The diary as Lilo exposes it (`lilo.diary`). */
export interface DiaryApi {
  /** "Write diary now" (/diary, `lilo diary write`): writes even right after another entry, never without a conversation. */
  writeNow(userId: string): Promise<DiaryResult>;
  /** The nightly run: also skips when nothing was said since the last entry. */
  run(userId: string): Promise<DiaryResult>;
  /** Newest entries first. */
  list(userId: string, limit?: number): DiaryEntry[];
  /** One entry with its owner; undefined when there is none (or it was deleted). */
  get(id: number): (DiaryEntry & { userId: string }) | undefined;
}

/**
 * The diary (docs/spec.md §8) from its collaborators, its configuration slice, the
 * persona and the shared feature context. Callers (adapters, jobs, CLI) get
 * a result instead of an exception: a failed model call is logged and
 * reported as `kind: "failed"` with the error message.
 */
export function diaryApi(deps: DiaryDeps, config: DiaryConfig, persona: Persona, ctx: FeatureContext): DiaryApi {
  const diary = { deps, config, persona, ctx };
  const attempt = async (userId: string, force: boolean): Promise<DiaryResult> => {
    try {
      return await writeDiary(diary, userId, { force });
    } catch (err) {
      ctx.logger.error("diary entry failed", { userId, error: describeError(err) });
      return { kind: "failed", error: describeError(err), cause: err };
    }
  };
  return {
    writeNow: (userId) => attempt(userId, true),
    run: (userId) => attempt(userId, false),
    list: (userId, limit = 20) => deps.memory.rows.diary.list(userId, limit).map((e) => toDiaryEntry(e, ctx.timeZone)),
    get: (id) => {
      const row = deps.memory.rows.diary.get(id);
      return row && !row.supersededAt ? { ...toDiaryEntry(row, ctx.timeZone), userId: row.userId } : undefined;
    },
  };
}
