import { z } from "zod";
import type { Clock } from "../foundation/ports/clock.ts";
import type { SettingsStore } from "../foundation/store/settings.ts";

/** Settings keys of running pages start with this; the rest of the key is the server's instance id. */
const PREFIX = "web-pages:";

/** One server of Lilo's pages that said it runs: where links point, where this machine reaches it, and who it is. */
export interface RunningPages {
  /** A random id the server answers with, so a caller can tell it from whatever else listens there later. */
  instance: string;
  /** The base of its login links (LILO_WEB_URL behind a proxy, else its own address). */
  url: string;
  /** Where a program on this machine reaches it (its listening address). */
  local: string;
  pid: number;
  startedAt: string;
}

const RECORD = z.object({ url: z.string(), local: z.string(), pid: z.number().int(), startedAt: z.string() });

/**
 * Which servers of Lilo's pages run on this database (the bot's and `lilo web`'s), kept in the settings table
 * like the contact records: a `lilo web --link` in another process finds them and mints its link in the same
 * database. A server killed without stopping leaves its record; callers ask it for its instance first.
 */
export interface RunningPagesApi {
  /** Records a started server. */
  announce(pages: Omit<RunningPages, "startedAt">): void;
  /** Every recorded server, newest first. */
  list(): RunningPages[];
  /** Removes a server's record (it stopped, or it no longer answers). */
  withdraw(instance: string): void;
}

/** Builds the running-pages records over the settings store; times come from the clock. */
export function runningPagesApi(settings: SettingsStore, clock: Clock): RunningPagesApi {
  return {
    announce({ instance, ...rest }) {
      const now = clock.now().toISOString();
      settings.set(PREFIX + instance, JSON.stringify({ ...rest, startedAt: now }), now);
    },
    list() {
      const rows = settings.list(PREFIX).flatMap(({ key, value }) => {
        const parsed = RECORD.safeParse(safeJson(value));
        return parsed.success ? [{ instance: key.slice(PREFIX.length), ...parsed.data }] : [];
      });
      return rows.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    },
    withdraw: (instance) => settings.delete(PREFIX + instance),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
