import type { ChatLogMessage } from "../../foundation/store/chat-log.ts";
import { cut } from "../../foundation/util/exchanges.ts";
import { localDay } from "../../foundation/util/time.ts";
import { clockTime, dayDiff, longDate, nextDay, pauseWords, relativeDay } from "./pause.ts";

/** Characters of each earlier message on a greeting's sheet. */
const MESSAGE_CHARS = 400;

/** What a greeting is written from, every date already reckoned by the program. */
export interface ReturnContext {
  /** How long the user was away, in words ("seit gestern Abend (14 Stunden)"). */
  pause: string;
  /** When the last message was written, relative to today ("gestern (Dienstag, 1.12.), 21:30"). */
  lastAt: string;
  /** Today's local date with weekday ("Mittwoch, 2. Dezember 2026"). */
  today: string;
  /** Local time now ("09:00"). */
  time: string;
  /** The earlier messages, oldest first: "[gestern (…) 21:30] Christian: …". */
  lines: string[];
  /** What "morgen" meant in those messages: "… von gestern (…) → heute (…)". */
  tomorrow: { said: string; meant: string; past: boolean }[];
}

/** How to label the earlier messages. */
interface ReturnContextOptions {
  timeZone: string;
  language: "de" | "en";
  userName: string;
  /** Lilo's own label ("Du"/"You"), so she reads her lines as her own words. */
  selfLabel: string;
}

/**
 * The greeting context (docs/spec.md §9) from the messages before the user's return
 * (oldest first) and the time now; undefined without earlier messages. The
 * pause runs from the newest of them.
 */
export function returnContext(messages: ChatLogMessage[], now: Date, o: ReturnContextOptions): ReturnContext | undefined {
  const last = messages[messages.length - 1];
  if (!last) return undefined;
  const today = localDay(now, o.timeZone);
  const when = (iso: string) => `${relativeDay(localDay(new Date(iso), o.timeZone), today, o.language)}, ${clockTime(new Date(iso), o.timeZone)}`;
  const days = [...new Set(messages.map((m) => localDay(new Date(m.createdAt), o.timeZone)))];
  return {
    pause: pauseWords(new Date(last.createdAt), now, o.timeZone, o.language),
    lastAt: when(last.createdAt),
    today: longDate(now, o.timeZone, o.language),
    time: clockTime(now, o.timeZone),
    lines: messages.map((m) => `[${when(m.createdAt)}] ${m.role === "user" ? o.userName : o.selfLabel}: ${cut(m.text, MESSAGE_CHARS)}`),
    // "Tomorrow" said today is still tomorrow: only earlier days need a hint.
    tomorrow: days
      .filter((d) => dayDiff(d, today) >= 1)
      .map((d) => ({ said: relativeDay(d, today, o.language), meant: relativeDay(nextDay(d), today, o.language), past: dayDiff(nextDay(d), today) >= 1 })),
  };
}
