import type { MatrixClient } from "matrix-bot-sdk";
import { describeError, type Logger } from "../../core/index.ts";

/** Rooms whose membership is remembered; beyond this the cache starts over (it is only a cache). */
const MAX_CACHED_ROOMS = 10_000;

/**
 * Which rooms count as private: Lilo and exactly one allowed user are the
 * joined members, nobody else. Only there does she talk, show memory or
 * push; in any other room she says so once and ignores the rest, so a room
 * shared by two people never shows one person's memory to the other.
 *
 * The members of a room are asked of the homeserver (`joined_members`) the
 * first time they are needed, then kept up to date from the room's
 * `m.room.member` events in timeline order. The server's answer may already
 * include later changes; replaying the events on top of it still ends in
 * the right set, and a message between a join and a leave is judged with
 * the joined member present.
 */
export class RoomPrivacy {
  /** Room id → joined members (Lilo included). */
  private readonly members = new Map<string, Set<string>>();
  /** Rooms told that Lilo does not talk there (until the room is private again). */
  private readonly told = new Set<string>();

  constructor(
    private readonly client: Pick<MatrixClient, "getJoinedRoomMembers">,
    private readonly botUserId: string,
    private readonly allowedUsers: Record<string, string>,
    private readonly logger: Logger,
  ) {}

  /** The Matrix id of the only other member when the room is private; undefined otherwise (or when the server cannot say). */
  async partner(roomId: string): Promise<string | undefined> {
    const members = await this.load(roomId);
    const others = [...(members ?? [])].filter((m) => m !== this.botUserId);
    const partner = members?.has(this.botUserId) && others.length === 1 && this.allowedUsers[others[0]!] ? others[0] : undefined;
    if (partner) this.told.delete(roomId);
    return partner;
  }

  /** Applies an `m.room.member` event of the room's timeline (join, leave, ban, …). */
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
