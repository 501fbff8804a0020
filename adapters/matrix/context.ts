import type { MatrixClient } from "matrix-bot-sdk";
import type { Lilo, Logger } from "../../core/index.ts";
import type { MatrixE2ee } from "./crypto/e2ee.ts";
import type { RoomPrivacy } from "./privacy.ts";
import type { BotState } from "./state.ts";
import type { MatrixTexts } from "./texts.ts";

/** What the handlers of the Matrix adapter share; built once in startMatrix. */
export interface MatrixContext {
  lilo: Lilo;
  client: MatrixClient;
  state: BotState;
  /** Which rooms are Lilo's and one allowed user's alone. */
  privacy: RoomPrivacy;
  logger: Logger;
  texts: MatrixTexts;
  /** Longest message in characters before an answer is split. */
  maxMessageChars: number;
  /** How answers shown as they are written are paced; default in live-answer.ts. */
  liveTiming?: LiveTiming | undefined;
  /** End-to-end encryption (undefined when switched off or the server names no device). */
  e2ee?: MatrixE2ee;
}

/** One incoming event from an allowed user in an allowed room. */
export interface MatrixEventSource {
  roomId: string;
  /** The Matrix event id (for reactions on it). */
  eventId: string;
  /** The sender's Matrix id. */
  sender: string;
  /** Lilo's user id of the sender. */
  userId: string;
}

/** How an answer shown as it is written is paced in the room (tests shorten it). */
export interface LiveTiming {
  /** Wait before the first words are sent: an answer written whole by then is sent once, without edits. */
  firstShowMs: number;
  /** Least time between two edits. */
  editIntervalMs: number;
}
