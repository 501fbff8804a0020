import { MatrixError, type MatrixClient } from "matrix-bot-sdk";
import { describeError, type AnswerStream, type Logger, type StreamUpdate } from "../../core/index.ts";
import { normalizeText } from "../../core/internal.ts";
import { renderMatrix, type RenderedMessage } from "./format.ts";
import { editContent, messageContent } from "./send.ts";
import type { LiveTiming, MatrixContext } from "./context.ts";

/**
 * Synapse's default limit on a user's messages (edits count as messages) is
 * a burst of 10, then one every 5 s. One edit every 2 s lets an answer of
 * about half a minute through without a refusal; a longer one is slowed by
 * the server's own `retry_after_ms`, which the next edit waits out.
 */
export const EDIT_INTERVAL_MS = 2_000;

/**
 * An answer written whole within this time is sent once, without edits, so
 * quick answers carry no "(edited)" mark; a slower one shows its first words
 * after it.
 */
export const FIRST_SHOW_MS = 300;

const TIMING: LiveTiming = { firstShowMs: FIRST_SHOW_MS, editIntervalMs: EDIT_INTERVAL_MS };

/** The live answer for one turn in `roomId`. */
export function liveAnswer(ctx: MatrixContext, roomId: string): LiveAnswer {
  return new LiveAnswer(ctx.client, roomId, ctx.maxMessageChars, ctx.logger, ctx.liveTiming);
}

/** How often the final text is tried again after the server refused it for the rate limit. */
const FINAL_TRIES = 4;

/**
 * One answer shown in a Matrix room as it is written: its first words as a
 * message, then throttled `m.replace` edits, and `finish` with the turn's
 * final text as the last edit. An answer longer than `maxChars` grows into
 * further messages, each edited on its own. What the stream shows has been
 * through the core's marker filter: no marker reaches the room. Updates
 * between the throttled edits are skipped, never queued, and a failed one is
 * only logged: the final edit is what counts, and its failure is thrown.
 */
export class LiveAnswer {
  /** For `handleMessage(message, { stream })`. */
  readonly stream: AnswerStream;
  private latest = "";
  private readonly ids: string[] = [];
  private readonly shown: RenderedMessage[] = [];
  private timer: NodeJS.Timeout | undefined;
  private showing: Promise<void> | undefined;
  private again = false;
  private finished = false;
  private lastShownAt = 0;
  private heldUntil = 0;

  constructor(
    private readonly client: MatrixClient,
    private readonly roomId: string,
    private readonly maxChars: number,
    private readonly logger: Logger,
    private readonly timing: LiveTiming = TIMING,
    private readonly now: () => number = Date.now,
  ) {
    this.stream = { onText: (update) => this.onText(update) };
  }

  /** Whether any part of the answer reached the room. */
  private get started(): boolean {
    return this.ids.length > 0;
  }

  /**
   * Shows `text` as the answer: the messages sent so far edited to it (a
   * part that is gone is redacted), or sent fresh when nothing was shown.
   * Returns the event ids of the answer's messages; throws when the text
   * could not be shown.
   */
  async finish(text: string): Promise<string[]> {
    this.stop();
    await this.showing;
    const parts = text.trim() ? renderMatrix(normalizeText(text), this.maxChars) : [];
    for (let i = 0; i < parts.length; i++) await this.final(() => this.showPart(i, parts[i]!));
    for (const id of this.ids.splice(parts.length)) {
      await this.client
        .redactEvent(this.roomId, id)
        .catch((err: unknown) => this.logger.warn("matrix: a streamed part could not be removed", { error: describeError(err) }));
    }
    this.shown.splice(parts.length);
    return [...this.ids];
  }

  /** Takes back what was shown (the turn ends without an answer now); failures are logged. */
  async discard(): Promise<void> {
    await this.finish("").catch((err: unknown) => this.logger.warn("matrix: a streamed answer could not be removed", { error: describeError(err) }));
  }

  private onText(update: StreamUpdate): void {
    if (this.finished) return;
    this.latest = update.text;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.finished) return;
    if (this.showing) return void (this.again = true);
    const wait = this.started ? Math.max(this.lastShownAt + this.timing.editIntervalMs, this.heldUntil) - this.now() : this.timing.firstShowMs;
    this.timer = setTimeout(() => this.tick(), Math.max(0, wait));
  }

  private tick(): void {
    this.timer = undefined;
    if (this.finished) return;
    this.lastShownAt = this.now();
    this.showing = this.showDraft(this.latest).finally(() => {
      this.showing = undefined;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    });
  }

  private async showDraft(text: string): Promise<void> {
    if (!text.trim()) return;
    try {
      const parts = renderMatrix(normalizeText(text), this.maxChars);
      for (let i = 0; i < parts.length && !this.finished; i++) await this.showPart(i, parts[i]!);
    } catch (err) {
      if (err instanceof MatrixError && err.retryAfterMs) this.heldUntil = this.now() + err.retryAfterMs;
      this.logger.debug("matrix: a streamed update was not shown", { roomId: this.roomId, error: describeError(err) });
    }
  }

  /** Part `i` of the answer as `part`: sent when new, edited when it changed, left alone otherwise. */
  private async showPart(i: number, part: RenderedMessage): Promise<void> {
    const before = this.shown[i];
    if (before && before.body === part.body && before.html === part.html) return;
    const id = this.ids[i];
    if (id === undefined) this.ids.push(await this.client.sendMessage(this.roomId, messageContent(part)));
    else await this.client.sendMessage(this.roomId, editContent(id, part));
    this.shown[i] = part;
  }

  /** Runs `send`, waiting out the server's rate limit a few times. */
  private async final(send: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send();
      } catch (err) {
        if (!(err instanceof MatrixError && err.retryAfterMs) || attempt >= FINAL_TRIES) throw err;
        await new Promise((resolve) => setTimeout(resolve, err.retryAfterMs));
      }
    }
  }

  private stop(): void {
    this.finished = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
