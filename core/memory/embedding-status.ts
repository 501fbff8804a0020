import { z } from "zod";
import type { SettingsStore } from "../foundation/store/settings.ts";

/**
 * How the running bot recalls, as `lilo status` shows it from another
 * process: by words only while the embedding model is missing, catching up
 * once it is there (the stored rows are embedded in the background), then
 * by words and meaning again.
 */
const embeddingStatus = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("words-only"), model: z.string(), reason: z.string(), folder: z.string(), since: z.string() }),
  z.object({ mode: z.literal("catching-up"), model: z.string(), since: z.string() }),
  z.object({ mode: z.literal("full"), model: z.string(), since: z.string() }),
]);

/** One of the three ways of recall, with the model and since when. */
export type EmbeddingStatus = z.infer<typeof embeddingStatus>;

/** Program state in the settings table, as the contacts are. */
const KEY = "embedding:recall";

/** The bot's way of recall, kept in SQLite so `lilo status` reads it. */
export class EmbeddingStatusRecord {
  constructor(private readonly settings: SettingsStore) {}

  /** The recorded state; undefined when the model never went missing (or the row is unreadable). */
  read(): EmbeddingStatus | undefined {
    const raw = this.settings.get(KEY);
    if (raw === undefined) return undefined;
    try {
      const parsed = embeddingStatus.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  write(status: EmbeddingStatus): void {
    this.settings.set(KEY, JSON.stringify(status), status.since);
  }
}
