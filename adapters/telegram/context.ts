import type { Api, Context } from "grammy";
import type { Lilo, Logger, MemoryHit } from "../../core/index.ts";
import type { TelegramTexts } from "./texts.ts";
import type { LiveAnswers } from "./live-answer.ts";

/** grammY's context plus the Lilo user the sender maps to (set by the access check). */
export type LiloContext = Context & { liloUserId: string };

/** What the handlers of one bot share. */
export interface TelegramDeps {
  lilo: Lilo;
  logger: Logger;
  texts: TelegramTexts;
  /** The notes on the cheat sheet of each chat's last answer, for /memory (kept in memory only). */
  lastNotes: Map<string, MemoryHit[]>;
  /** Per chat, the message whose yes/no buttons are still up: the next message there settles the question, so they go. */
  questionMessages: Map<string, number>;
  /** Telegram message ("chat:message") → Lilo's answer id, for /why as a reply (kept in memory only; /why alone explains the last answer). */
  answerMessages: Map<string, number>;
  /** The answers being written now, one per chat, for their stop buttons. */
  live: LiveAnswers;
  /** The Bot API without retries, for the updates of an answer being written (a refused one is skipped, not waited for). */
  previews: Api;
  /** Chats where Telegram refused drafts: their answers are written as a message that is edited. */
  draftsRefused: Set<string>;
}
