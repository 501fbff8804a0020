import type { MatrixClient } from "matrix-bot-sdk";
import type { PushMessage, PushTarget, Transport } from "../../core/index.ts";
import { sendMarkdown } from "./send.ts";

/**
 * Lilo's pushes (greetings, concerns, diary pings, tests) to the Matrix room
 * a user opted in from (`target.chatId` is the room id), rendered like any
 * answer. A failure throws, so the push log records it as failed.
 */
export class MatrixTransport implements Transport {
  readonly name = "matrix";

  constructor(
    private readonly client: MatrixClient,
    private readonly maxMessageChars: number,
  ) {}

  async send(target: PushTarget, message: PushMessage): Promise<void> {
    await sendMarkdown(this.client, target.chatId, message.text, this.maxMessageChars);
  }
}
