import type { MatrixClient } from "matrix-bot-sdk";
import { describeError, type Logger } from "../../core/index.ts";

/** Rooms whose membership is remembered; beyond this the cache starts over (it is only a cache). */
const MAX_CACHED_ROOMS = 10_000;
/** Verdicts kept for events the handlers have not reached yet; beyond this they start over (a missing one is judged again). */
const MAX_VERDICTS = 10_000;

/** What of a joined room's sync section decides whether its members must be asked again. */
export interface SyncedRoom {
  /** True after a sync gap: events were left out, membership changes among them. */
  limited: boolean;
  /** The room's `state` section: state as of the timeline's start, only partly sent (member changes in a gap appear here only). */
  stateEvents: readonly { type?: string; state_key?: string; content?: Record<string, unknown> }[];
}

/**
 * Which rooms count as private: Lilo and exactly one allowed user are the
 * joined members, nobody else. Only there does she talk, show memory or
 * push; in any other room she says so once and ignores the rest, so a room
 * shared by two people never shows one person's memory to the other.
 *
 * The members of a room are asked of the homeserver (`joined_members`) the
 * first time they are needed, then kept up to date from every sync before
 * the SDK emits its events (`storeSync`): the room's `m.room.member` events
 * in timeline order, and after a sync gap (`timeline.limited`) or any
 * member event in the `state` section the whole set is asked of the server
 * again, with the state section applied on top (the SDK itself never looks
 * at that section, so a join there would otherwise go unseen). The server's
 * answer may already include later changes; replaying the events on top of
 * it still ends in the right set, and a message between a join and a leave
 * is judged with the joined member present. Each message is judged once,
 * there, in sync order; the event handlers use that verdict.
 */
export class RoomPrivacy {
  /** Room id → joined members (Lilo included). */
  private readonly members = new Map<string, Set<string>>();
  /** Rooms told that Lilo does not talk there (until the room is private again). */
  private readonly told = new Set<string>();
  /** Event id → the private partner when the event was judged in its sync ("" = not private then). */
  private readonly verdicts = new Map<string, string>();

  constructor(
    private readonly client: Pick<MatrixClient, "getJoinedRoomMembers">,
    private readonly botUserId: string,
    private readonly allowedUsers: Record<string, string>,
    private readonly logger: Logger,
  ) {}

  /** The Matrix id of the only other member when the room is private; undefined otherwise (or when the server cannot say). */
  async partner(roomId: string): Promise<string | undefined> {
    const partner = await this.currentPartner(roomId);
    if (partner) this.told.delete(roomId);
    return partner;
  }

  /**
   * Judges an event of the sync being read (in timeline order) and keeps the
   * verdict for its handler: the private partner then, or undefined.
   */
  async judge(roomId: string, eventId: string): Promise<string | undefined> {
    const partner = await this.currentPartner(roomId);
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
    this.verdicts.set(eventId, partner ?? "");
    return partner;
  }

  /** The partner for an event's handler: its verdict from the sync if there is one, else the room as it is now. */
  async partnerFor(roomId: string, eventId: string): Promise<string | undefined> {
    const verdict = this.verdicts.get(eventId);
    if (verdict === undefined) return this.partner(roomId);
    this.verdicts.delete(eventId);
    if (verdict) this.told.delete(roomId);
    return verdict || undefined;
  }

  /**
   * A joined room's section of a sync, before its timeline: after a gap or
   * a member change in `state`, the members are asked of the server again
   * (a failure leaves them unknown, so the room counts as shared and is
   * asked again at the next message) and the state section is applied.
   */
  async syncRoom(roomId: string, room: SyncedRoom): Promise<void> {
    const stateMembers = room.stateEvents.filter((ev) => ev.type === "m.room.member");
    if (!room.limited && stateMembers.length === 0) return;
    this.members.delete(roomId);
    this.logger.debug("matrix room members asked again", { roomId, limited: room.limited, stateMemberEvents: stateMembers.length });
    for (const ev of stateMembers) await this.memberEvent(roomId, ev.state_key, ev.content?.membership);
    await this.load(roomId);
  }

  /** Applies an `m.room.member` event of the room's timeline or state (join, leave, ban, …). */
  async memberEvent(roomId: string, userId: string | undefined, membership: unknown): Promise<void> {
    const members = await this.load(roomId);
    if (!members || !userId) return;
    if (membership === "join") members.add(userId);
    else members.delete(userId);
  }

  /** Lilo left the room: forget what was known of it. */
  forget(roomId: string): void {
    this.members.delete(roomId);
    this.told.delete(roomId);
  }

  /** True the first time a non-private room is to be told so (again after it was private in between). */
  firstNotice(roomId: string): boolean {
    if (this.told.has(roomId)) return false;
    this.told.add(roomId);
    return true;
  }

  private async currentPartner(roomId: string): Promise<string | undefined> {
    const members = await this.load(roomId);
    const others = [...(members ?? [])].filter((m) => m !== this.botUserId);
    return members?.has(this.botUserId) && others.length === 1 && this.allowedUsers[others[0]!] ? others[0] : undefined;
  }

  private async load(roomId: string): Promise<Set<string> | undefined> {
    const known = this.members.get(roomId);
    if (known) return known;
    try {
      const fetched = new Set(await this.client.getJoinedRoomMembers(roomId));
      if (this.members.size >= MAX_CACHED_ROOMS) this.members.clear();
      this.members.set(roomId, fetched);
      return fetched;
    } catch (err) {
      // Unknown membership counts as shared (and is asked again next time): better silent than showing memory to the wrong people.
      this.logger.warn("matrix room members unknown; the room is treated as shared", { roomId, error: describeError(err) });
      return undefined;
    }
  }
}
