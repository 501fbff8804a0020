import type { MatrixClient } from "matrix-bot-sdk";
import { LiloError, type PushMessage, type PushTarget, type Transport } from "../../core/index.ts";
import type { RoomPrivacy } from "./privacy.ts";
import { sendMarkdown } from "./send.ts";

/**
 * Lilo's pushes (greetings, concerns, diary pings, tests) to the Matrix room
 * a user opted in from (`target.chatId` is the room id), rendered like any
 * answer, and only while the room is private. A failure throws, so the push log records it as failed.
 */
export class MatrixTransport implements Transport {
  readonly name = "matrix";

  constructor(
    private readonly client: MatrixClient,
    private readonly maxMessageChars: number,
    private readonly privacy: RoomPrivacy,
    /** The typed actions under a rung reminder (Matrix has no buttons). */
    private readonly reminderActions?: (reminderId: number) => string,
  ) {}

  async send(target: PushTarget, message: PushMessage): Promise<void> {
    // A room that gained members since the opt-in is no place for Lilo's pushes.
    if (!(await this.privacy.partner(target.chatId))) throw new LiloError("not-private", `Matrix room ${target.chatId} is not private any more: push withheld`);
    const actions = message.reminderId !== undefined ? this.reminderActions?.(message.reminderId) : undefined;
    await sendMarkdown(this.client, target.chatId, actions ? `${message.text}\n\n${actions}` : message.text, this.maxMessageChars);
  }
}
