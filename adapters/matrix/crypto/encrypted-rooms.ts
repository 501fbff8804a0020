/** A room's state as far as encryption goes: the `m.room.encryption` event, in a sync's state or timeline. */
interface StateSource {
  rooms?: { join?: Record<string, { state?: { events?: unknown[] }; timeline?: { events?: unknown[] } }> };
}

/** Asks the server for a room's `m.room.encryption` state; rejects with a 404 (M_NOT_FOUND) for an unencrypted room. */
export type ReadEncryptionState = (roomId: string) => Promise<unknown>;

/**
 * Which rooms are encrypted, so Lilo encrypts what she sends there. A room
 * becomes encrypted with an `m.room.encryption` state event and stays so
 * (the spec allows no way back); each room is asked of the server once,
 * then followed in every sync.
 */
export class EncryptedRooms {
  private readonly known = new Map<string, boolean>();

  constructor(private readonly readState: ReadEncryptionState) {}

  /** Notes the rooms a sync shows to be encrypted (in its state section or timeline). */
  noteSync(sync: StateSource): void {
    for (const [roomId, room] of Object.entries(sync.rooms?.join ?? {})) {
      const events = [...(room.state?.events ?? []), ...(room.timeline?.events ?? [])] as { type?: string; state_key?: string }[];
      if (events.some((e) => e.type === "m.room.encryption" && e.state_key === "")) this.known.set(roomId, true);
    }
  }

  /** True when `roomId` is encrypted; asked of the server the first time (a failure other than "no such state" throws). */
  async isEncrypted(roomId: string): Promise<boolean> {
    const known = this.known.get(roomId);
    if (known !== undefined) return known;
    let encrypted: boolean;
    try {
      const state = (await this.readState(roomId)) as { algorithm?: unknown } | undefined;
      encrypted = typeof state?.algorithm === "string";
    } catch (err) {
      // Sending in plain text to an encrypted room would leak the message: only "there is no such state" means unencrypted.
      if ((err as { errcode?: unknown }).errcode !== "M_NOT_FOUND") throw err;
      encrypted = false;
    }
    // Noted meanwhile by a sync: that answer is the newer one.
    if (!this.known.has(roomId)) this.known.set(roomId, encrypted);
    return this.known.get(roomId)!;
  }
}
