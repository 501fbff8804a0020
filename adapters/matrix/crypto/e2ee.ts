import type { IStorageProvider } from "matrix-bot-sdk";
import type { Logger } from "../../../core/index.ts";
import type { CryptoSync, MatrixCrypto, TimelineEvent } from "./crypto-machine.ts";
import type { EncryptedRooms } from "./encrypted-rooms.ts";

/** An encrypted event whose room key has not arrived yet, kept until it does. */
interface Waiting {
  roomId: string;
  event: TimelineEvent;
}

type JoinedRoom = { timeline?: { events?: TimelineEvent[]; limited?: boolean }; state?: { events?: unknown[] } };
type SyncAnswer = CryptoSync & { rooms?: { join?: Record<string, JoinedRoom> } };

const WAITING_KEY = "lilo.matrix.crypto.waiting";
/** A sender's client shares a missing key within seconds or minutes, or never: after a day it is given up. */
const MAX_WAIT_MS = 24 * 3_600_000;
/** Beyond this many waiting events the oldest are given up. */
const MAX_WAITING = 500;

export interface E2eeParts {
  crypto: MatrixCrypto;
  rooms: EncryptedRooms;
  /** Where waiting events are kept (the adapter's storage, next to the sync token). */
  storage: IStorageProvider;
  logger: Logger;
  /** Whether an encrypted event of `sender` in `roomId` is worth waiting for (an allowed user in an allowed room). */
  wanted: (roomId: string, sender: string) => boolean;
  /** The joined members of a room, whose devices get the room key. */
  members: (roomId: string) => Promise<string[]>;
  /** Now, in ms (Lilo's clock): how long an event has waited. */
  now: () => number;
  /** An event of `roomId` whose key never came is given up (its sender should be told). */
  gaveUp: (roomId: string, eventId: string) => void;
}

/**
 * End-to-end encryption around the adapter: each sync is read by the crypto
 * first (room keys, device lists), then its encrypted timeline events are
 * replaced in the sync answer by what their senders wrote, so the privacy
 * rules, the durable inbox and the handlers see plain events exactly as in
 * an unencrypted room. An event whose key has not come yet is taken out of
 * the timeline and kept (in the storage, before the sync token moves on);
 * every later sync tries it again and, once its key is there, puts it into
 * that sync's timeline of its room (`commitSync` saves the list after the
 * sync's messages are stored). Sending encrypts in encrypted rooms.
 */
export class MatrixE2ee {
  private waiting: Waiting[];
  private dirty = false;

  private constructor(
    private readonly parts: E2eeParts,
    waiting: Waiting[],
  ) {
    this.waiting = waiting;
  }

  static async create(parts: E2eeParts): Promise<MatrixE2ee> {
    const raw = await Promise.resolve(parts.storage.readValue(WAITING_KEY));
    return new MatrixE2ee(parts, raw ? (JSON.parse(raw) as Waiting[]) : []);
  }

  /** The crypto device (its keys, for the log and the new-device notice). */
  get crypto(): MatrixCrypto {
    return this.parts.crypto;
  }

  /** How many events wait for their room key. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Reads a sync answer before anything else does and decrypts its timelines in place (see the class comment). */
  async prepareSync(sync: SyncAnswer): Promise<void> {
    const { crypto, rooms, logger } = this.parts;
    await crypto.receiveSync(sync);
    rooms.noteSync(sync);
    const joined = sync.rooms?.join ?? {};
    const before = this.waiting.length;
    const stillWaiting: Waiting[] = [];
    // Events that waited are older than this sync's: they go first in their room's timeline.
    const late = new Map<string, TimelineEvent[]>();
    for (const w of this.waiting) {
      const outcome = await crypto.decrypt(w.roomId, w.event);
      if ("event" in outcome) late.set(w.roomId, [...(late.get(w.roomId) ?? []), outcome.event]);
      else if ("missingKey" in outcome && this.parts.now() - (w.event.origin_server_ts ?? 0) < MAX_WAIT_MS) stillWaiting.push(w);
      else if ("missingKey" in outcome) this.giveUp(w);
      else logger.warn("matrix encrypted message cannot be decrypted", { roomId: w.roomId, eventId: w.event.event_id, reason: outcome.failed });
    }
    for (const [roomId, room] of Object.entries(joined)) {
      const events: TimelineEvent[] = [];
      for (const ev of room.timeline?.events ?? []) {
        if (ev.type !== "m.room.encrypted") {
          events.push(ev);
          continue;
        }
        const outcome = await crypto.decrypt(roomId, ev);
        if ("event" in outcome) events.push(outcome.event);
        else if ("missingKey" in outcome && this.parts.wanted(roomId, ev.sender)) stillWaiting.push({ roomId, event: ev });
        else if ("failed" in outcome) logger.warn("matrix encrypted message cannot be decrypted", { roomId, eventId: ev.event_id, reason: outcome.failed });
      }
      if (room.timeline) room.timeline.events = events;
    }
    for (const [roomId, events] of late) {
      const room = (joined[roomId] ??= { timeline: { events: [], limited: false }, state: { events: [] } });
      room.timeline = { ...room.timeline, events: [...events, ...(room.timeline?.events ?? [])] };
      logger.info("matrix encrypted messages decrypted after their key arrived", { roomId, count: events.length });
    }
    if (sync.rooms) sync.rooms.join = joined;
    else if (late.size) sync.rooms = { join: joined };
    const dropped = Math.max(0, stillWaiting.length - MAX_WAITING);
    for (const w of stillWaiting.slice(0, dropped)) this.giveUp(w);
    this.waiting = stillWaiting.slice(dropped);
    if (this.waiting.length !== before || late.size) this.dirty = true;
    if (this.waiting.length > before) logger.info("matrix encrypted messages wait for their room key", { waiting: this.waiting.length });
  }

  /** Is the room end-to-end encrypted (so an attachment must be encrypted before it is uploaded)? */
  isEncrypted(roomId: string): Promise<boolean> {
    return this.parts.rooms.isEncrypted(roomId);
  }

  /**
   * What to send for an event: in an encrypted room its `m.room.encrypted`
   * form (redactions stay plain, as the spec wants), elsewhere unchanged.
   */
  async outgoing(roomId: string, type: string, content: Record<string, unknown>): Promise<{ type: string; content: Record<string, unknown> }> {
    if (type === "m.room.redaction" || !(await this.parts.rooms.isEncrypted(roomId))) return { type, content };
    const members = await this.parts.members(roomId);
    return { type: "m.room.encrypted", content: await this.parts.crypto.encrypt(roomId, type, content, members) };
  }

  private giveUp(w: Waiting): void {
    this.parts.logger.warn("matrix: the key of an encrypted message never came; given up", { roomId: w.roomId, eventId: w.event.event_id });
    this.parts.gaveUp(w.roomId, w.event.event_id);
  }

  /** Stops the crypto machine. */
  async close(): Promise<void> {
    await this.parts.crypto.close();
  }

  /**
   * Saves which events still wait, once the sync's messages are stored:
   * an event that stopped waiting is in the inbox before it leaves this
   * list. A failure propagates, so the sync is not confirmed and comes again.
   */
  async commitSync(): Promise<void> {
    if (!this.dirty) return;
    await Promise.resolve(this.parts.storage.storeValue(WAITING_KEY, JSON.stringify(this.waiting)));
    this.dirty = false;
  }
}
