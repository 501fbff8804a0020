import type { LiloConfig } from "../../foundation/config/config.ts";
import type { TextRows } from "../../foundation/store/text-rows.ts";
import type { TurnMiddleware } from "../../conversation/turn/types.ts";
import { cut } from "../../foundation/util/exchanges.ts";
import { diaryQuestionExtra } from "../prompts/diary.ts";
import { entryDay } from "./write-diary.ts";

/** Words that name the diary (German and English), compared as whole words. */
const DIARY_WORDS = new Set([
  "tagebuch",
  "tagebuchs",
  "tagebuches",
  "tagebucheintrag",
  "tagebucheintrags",
  "tagebucheinträge",
  "tagebucheinträgen",
  "eintrag",
  "einträge",
  "einträgen",
  "diary",
  "diaries",
  "journal",
  "entry",
  "entries",
]);

/** Words that ask for count or recency; multi-word ones as sequences of whole words. */
const TRIGGERS: readonly (readonly string[])[] = [
  ["wie", "viele"],
  ["wieviele"],
  ["wie", "oft"],
  ["letzte"],
  ["letzten"],
  ["letzter"],
  ["letztes"],
  ["zuletzt"],
  ["neueste"],
  ["neuesten"],
  ["neuester"],
  ["neuestes"],
  ["schon"],
  ["bisher"],
  ["geschrieben"],
  ["vorlesen"],
  ["how", "many"],
  ["last"],
  ["latest"],
  ["newest"],
  ["recent"],
  ["recently"],
  ["already"],
  ["so", "far"],
  ["written"],
  ["wrote"],
  ["read"],
];

/** Characters of each older entry shown besides the newest one (which comes in full). */
const EARLIER_CHARS = 300;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize("NFC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function containsSequence(ws: string[], seq: readonly string[]): boolean {
  return ws.some((_, i) => seq.every((s, j) => ws[i + j] === s));
}

/**
 * A diary question (docs/spec.md §8): a diary word plus a trigger such as "wie viele"
 * or "zuletzt", both as whole words ("Tagebuch" is not found in "Tagebuchhülle"
 * and "last" not in "elastic"). German and English, whatever Lilo speaks.
 */
export function isDiaryQuestion(text: string): boolean {
  const ws = words(text);
  return ws.some((w) => DIARY_WORDS.has(w)) && TRIGGERS.some((t) => containsSequence(ws, t));
}

/**
 * The turn middleware that answers diary questions from the database,
 * without a search: the number of entries and the newest ones go on the
 * cheat sheet, the newest in full so Lilo may read it out.
 */
export function diaryQuestion(
  diary: TextRows,
  config: { diary: Pick<LiloConfig["diary"], "lastEntries">; timezone: string; language: "de" | "en" },
): TurnMiddleware {
  return {
    name: "diary-question",
    readOnly: true,
    async run(ctx, next) {
      if (isDiaryQuestion(ctx.text)) ctx.sheet.diaryQuestion = diaryLines(diary, config, ctx.userId);
      await next();
    },
  };
}

/** The diary's count and newest entries, as the sheet shows them. */
function diaryLines(
  diary: TextRows,
  config: { diary: Pick<LiloConfig["diary"], "lastEntries">; timezone: string; language: "de" | "en" },
  userId: string,
): string {
  const count = diary.countLive(userId);
  const [newest, ...earlier] = diary.list(userId, Math.max(1, config.diary.lastEntries));
  const day = (e: NonNullable<typeof newest>) => entryDay(e, config.timezone);
  return diaryQuestionExtra(config.language, {
    count,
    ...(newest ? { newest: { day: day(newest), text: newest.text } } : {}),
    earlier: earlier.map((e) => ({ day: day(e), text: cut(e.text, EARLIER_CHARS) })),
  });
}
