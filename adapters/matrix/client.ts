import { MatrixClient, type IStorageProvider } from "matrix-bot-sdk";
import { describeError, type Lilo, type Logger } from "../../core/index.ts";

/**
 * The SDK's client with every sync recorded as the adapter's contact with
 * the homeserver: a sync that returns is a success, one that fails is the
 * outage `lilo status` shows (the SDK then waits 5–15 s and tries again,
 * which `sdkInfo` logs at warn level).
 */
export class WatchedMatrixClient extends MatrixClient {
  constructor(
    homeserverUrl: string,
    accessToken: string,
    storage: IStorageProvider,
    private readonly contacts: Lilo["contacts"],
    private readonly logger: Logger,
  ) {
    super(homeserverUrl, accessToken, storage);
  }

  /**
   * Set while end-to-end encryption runs (bot.ts): turns an event for an
   * encrypted room into its `m.room.encrypted` form before it is sent.
   */
  outgoing: ((roomId: string, type: string, content: Record<string, unknown>) => Promise<{ type: string; content: Record<string, unknown> }>) | undefined;

  /** Every message, reaction and notice of the adapter goes through here (sendMessage, sendText, sendEvent). */
  override async sendEvent(roomId: string, eventType: string, content: Record<string, unknown>): Promise<string> {
    const out = this.outgoing ? await this.outgoing(roomId, eventType, content) : { type: eventType, content };
    return this.sendRawEvent(roomId, out.type, out.content);
  }

  protected override async doSync(token: string): Promise<unknown> {
    let response: unknown;
    try {
      response = await super.doSync(token);
    } catch (err) {
      this.record(() => this.contacts.failed("matrix", describeError(err)));
      throw err;
    }
    this.record(() => this.contacts.ok("matrix"));
    return response;
  }

  /** Recording a contact is bookkeeping: its failure (a closing database) must not fail the sync. */
  private record(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.debug("matrix contact not recorded", { error: describeError(err) });
    }
  }
}

/**
 * Where the SDK's info lines go: debug, except its wait after a failed
 * sync ("Backing off for 7312ms"), which is the homeserver being
 * unreachable — a warning with the retry delay.
 */
export function sdkInfo(logger: Logger, module: string, text: string): void {
  const backoff = /^Backing off for ([\d.]+)ms/.exec(text);
  if (module === "MatrixClientLite" && backoff)
    logger.warn("matrix homeserver unreachable, retrying", { retryInSeconds: Math.round(Number(backoff[1]) / 100) / 10 });
  else logger.debug(`matrix-sdk ${module}: ${text}`);
}
