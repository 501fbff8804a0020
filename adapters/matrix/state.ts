import type { IStorageProvider } from "matrix-bot-sdk";

/** Which question a message of the bot asked, so a reaction on it can answer it. */
export interface QuestionRef {
  questionId: number;
  /** Lilo's user id of the question's owner. */
  userId: string;
  roomId: string;
  /** The bot's own 👍 / 👎 reactions on the question, removed once it is answered. */
  hints: string[];
}

interface Saved {
  /** Room id → Matrix id of the allowed user whose invitation the bot accepted. */
  rooms: Record<string, string>;
  /** Question message event id → question; newest last, capped at MAX_QUESTIONS. */
  questions: Record<string, QuestionRef>;
  /** Rooms already told that encrypted messages cannot be read. */
  encryptedWarned: string[];
}

const KEY = "lilo.matrix.state";
/** Old unanswered questions expire in the core anyway; keep the map small. */
const MAX_QUESTIONS = 100;

/**
 * What the Matrix adapter remembers across restarts, kept in the SDK's own
 * storage (data/matrix-bot.json next to the sync token), as one JSON value:
 * the allowed rooms, the question messages and the rooms already warned
 * about encryption. Small, read once at start, written through on change.
 */
export class BotState {
  private constructor(
    private readonly storage: IStorageProvider,
    private readonly saved: Saved,
  ) {}

  /** Reads the state from `storage` (empty on first start). */
  static async load(storage: IStorageProvider): Promise<BotState> {
    const raw = await Promise.resolve(storage.readValue(KEY));
    const parsed = raw ? (JSON.parse(raw) as Partial<Saved>) : {};
    return new BotState(storage, { rooms: parsed.rooms ?? {}, questions: parsed.questions ?? {}, encryptedWarned: parsed.encryptedWarned ?? [] });
  }

  /** A room counts as allowed when the bot joined it on an allowed user's invitation. */
  isAllowedRoom(roomId: string): boolean {
    return roomId in this.saved.rooms;
  }

  /** Every allowed room with the user who invited Lilo there. */
  allowedRooms(): [roomId: string, inviter: string][] {
    return Object.entries(this.saved.rooms);
  }

  async allowRoom(roomId: string, inviter: string): Promise<void> {
    this.saved.rooms[roomId] = inviter;
    await this.save();
  }

  async dropRoom(roomId: string): Promise<void> {
    delete this.saved.rooms[roomId];
    await this.save();
  }

  question(eventId: string): QuestionRef | undefined {
    return this.saved.questions[eventId];
  }

  async rememberQuestion(eventId: string, ref: QuestionRef): Promise<void> {
    this.saved.questions[eventId] = ref;
    const ids = Object.keys(this.saved.questions);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_QUESTIONS))) delete this.saved.questions[old];
    await this.save();
  }

  async forgetQuestion(eventId: string): Promise<void> {
    delete this.saved.questions[eventId];
    await this.save();
  }

  /** True the first time for a room, so the encryption notice is sent once. */
  async firstEncryptedWarning(roomId: string): Promise<boolean> {
    if (this.saved.encryptedWarned.includes(roomId)) return false;
    this.saved.encryptedWarned.push(roomId);
    await this.save();
    return true;
  }

  private async save(): Promise<void> {
    await Promise.resolve(this.storage.storeValue(KEY, JSON.stringify(this.saved)));
  }
}
