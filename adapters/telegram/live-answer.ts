import { GrammyError, type Api } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { describeError, type Logger, type TurnOptions } from "../../core/index.ts";
import type { StreamUpdate } from "../../core/index.ts";
import { normalizeText } from "../../core/internal.ts";
import { renderChunks, TELEGRAM_TEXT_LIMIT, type Chunk } from "../shared/format.ts";
import { settledMarkdown } from "../shared/settled-markdown.ts";
import type { ChatId } from "./render.ts";

/**
 * Drafts at most every 400 ms: a draft is animated on the person's screen,
 * and about two and a half updates a second read as fluent writing while
 * staying far below the rate at which Telegram starts answering 429.
 */
export const DRAFT_EVERY_MS = 400;

/**
 * Edits of the first message at most every 1.1 s: Telegram allows about one
 * message or edit per second in a chat before it answers 429, and a refused
 * edit would only be redone later.
 */
export const EDIT_EVERY_MS = 1_100;

/** Shown after the text of a message that is still being written (the edit fallback), so a half answer reads as unfinished. */
const WRITING = " …";

/** Callback data of the stop button under a message being written. */
export function stopCallback(liveId: number): string {
  return `stop:${liveId}`;
}

/** The live answer a stop button's data points at, or undefined for other data. */
export function parseStopCallback(data: string): number | undefined {
  const m = /^stop:(\d+)$/.exec(data);
  return m ? Number(m[1]) : undefined;
}

/** Draft ids must be non-zero and distinct per answer part; each part of each answer takes the next one. */
let nextDraftId = 1;

/** What a live answer needs from the bot. */
export interface LiveAnswerDeps {
  /** The bot's API, with its retries: the final text goes through it. */
  api: Api;
  /** An API without retries for the updates while writing: a refused or slow update is skipped, never waited for. */
  previews: Api;
  logger: Logger;
  /** Chats where drafts were refused: they go straight to the first message and edits. */
  draftsRefused: Set<string>;
  /** Label of the stop button in the persona's language. */
  stopLabel: string;
  /** Elapsed milliseconds (monotonic): the throttle measures time between calls, not the calendar. */
  now?: () => number;
}

/**
 * One answer shown on Telegram while the model writes it. Drafts
 * (`sendMessageDraft`, with Telegram's stop button) in a private chat; where
 * drafts are refused, a first message that is edited as the text grows, with
 * a stop button under it. Either way updates are throttled and every update
 * is whole, valid HTML (each part rendered on its own, so no cut ever
 * splits a tag) with no half-written span (see `settledMarkdown`). The final text goes out once, by `finish` (edits) or as a
 * normal message (drafts vanish when it arrives).
 */
export class LiveAnswer {
  /** Aborted by the stop button: the core cancels the model call and keeps what was shown. */
  readonly controller = new AbortController();
  /** Identifies this answer in its stop button. */
  readonly id = nextDraftId++;
  private readonly draftIds = [this.id];
  private readonly now: () => number;
  private readonly calls = new AbortController();
  private mode: "draft" | "edit";
  private latest = "";
  private shown = "";
  private lastAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private inflight: Promise<void> | undefined;
  private closed = false;
  /** The messages of the edit fallback, with the HTML each shows and whether it carries the stop button. */
  private readonly messages: { id: number; html: string; button: boolean }[] = [];

  constructor(
    private readonly deps: LiveAnswerDeps,
    private readonly chatId: number,
  ) {
    this.now = deps.now ?? (() => performance.now());
    this.mode = deps.draftsRefused.has(String(chatId)) ? "edit" : "draft";
  }

  /** What to hand the core turn. */
  options(): TurnOptions {
    return { stream: { onText: (u) => this.onText(u), signal: this.controller.signal } };
  }

  /** Does this answer own the draft with this id (for `stopped_message_generation`)? */
  hasDraft(draftId: number): boolean {
    return this.draftIds.includes(draftId);
  }

  /** The person pressed stop. */
  stop(): void {
    if (!this.controller.signal.aborted) this.deps.logger.info("telegram answer stopped by the person", { chatId: this.chatId });
    this.controller.abort();
  }

  /** Messages of the edit fallback are on the screen: the final text must replace them (see `finish`). */
  ownsDelivery(): boolean {
    return this.messages.length > 0;
  }

  /** No more updates: waits for one still under way (a draft's is cut short; a message's must land so its id is known). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.mode === "draft") this.calls.abort();
    await this.inflight;
  }

  /**
   * The final text over the messages of the edit fallback: each part edited
   * into place (plain text where Telegram refuses the HTML), parts beyond
   * them sent, messages left over removed. Returns the message ids.
   */
  async finish(text: string): Promise<number[]> {
    await this.close();
    const parts = renderChunks(normalizeText(text));
    const ids: number[] = [];
    for (const [i, part] of parts.entries()) ids.push(await this.place(this.deps.api, i, part, "", false));
    for (const extra of this.messages.splice(parts.length)) {
      await this.deps.api
        .deleteMessage(this.chatId, extra.id)
        .catch((err: unknown) => this.deps.logger.warn("telegram: a left-over part was not removed", { error: describeError(err) }));
    }
    return ids;
  }

  private onText(update: StreamUpdate): void {
    if (this.closed) return;
    this.latest = update.text;
    this.schedule();
  }

  private interval(): number {
    return this.mode === "draft" ? DRAFT_EVERY_MS : EDIT_EVERY_MS;
  }

  /** Shows the newest text now when the interval has passed and nothing is under way; else once it has. */
  private schedule(): void {
    if (this.closed || this.inflight || this.timer) return;
    // A span still being written is held back, so no update shows its Markdown delimiters.
    const text = settledMarkdown(this.latest);
    if (text === this.shown || !text.trim()) return;
    const wait = this.lastAt + this.interval() - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      return;
    }
    this.lastAt = this.now();
    this.shown = text;
    this.inflight = this.show(text).finally(() => {
      this.inflight = undefined;
      this.schedule();
    });
  }

  private async show(text: string): Promise<void> {
    try {
      if (this.mode === "draft") await this.showDraft(text);
      else await this.showEdits(text);
    } catch (err) {
      if (this.closed && this.mode === "draft") return;
      const retryAfter = err instanceof GrammyError ? err.parameters.retry_after : undefined;
      // Flood control: no update until Telegram's wait is over; the final text is not held up by it.
      if (retryAfter) this.lastAt = this.now() + retryAfter * 1000;
      this.deps.logger.debug("telegram: an update of the answer being written was skipped", { error: describeError(err) });
    }
  }

  private async showDraft(text: string): Promise<void> {
    const parts = renderChunks(normalizeText(text));
    // A draft holds one message: past 4,096 characters it shows the newest part, under a draft id of its own.
    while (this.draftIds.length < parts.length) this.draftIds.push(nextDraftId++);
    const draftId = this.draftIds[parts.length - 1]!;
    const part = parts.at(-1)!;
    const { previews } = this.deps;
    const other = { can_stop: true } as const;
    // grammY types its signal with the abort-controller package's class; Node's own is the same thing at run time.
    const signal = this.calls.signal as unknown as Parameters<Api["sendMessageDraft"]>[4];
    try {
      try {
        await previews.sendMessageDraft(this.chatId, draftId, part.html, { ...other, parse_mode: "HTML" }, signal);
      } catch (err) {
        if (!isEntityError(err)) throw err;
        await previews.sendMessageDraft(this.chatId, draftId, part.plain, other, signal);
      }
    } catch (err) {
      // Telegram refuses drafts here (an older Bot API server, a chat without them): the first message and edits instead.
      if (!(err instanceof GrammyError) || err.error_code === 429 || err.error_code >= 500) throw err;
      this.deps.logger.info("telegram refused drafts in this chat; showing the answer as a message that is edited", {
        chatId: this.chatId,
        error: describeError(err),
      });
      this.deps.draftsRefused.add(String(this.chatId));
      this.mode = "edit";
      await this.showEdits(text);
    }
  }

  private async showEdits(text: string): Promise<void> {
    const parts = renderChunks(normalizeText(text), TELEGRAM_TEXT_LIMIT - WRITING.length);
    for (const [i, part] of parts.entries()) {
      const last = i === parts.length - 1;
      await this.place(this.deps.previews, i, part, last ? WRITING : "", last);
    }
  }

  /** Puts one part into message `i` (sent when it does not exist yet, edited when it shows something else); returns its id. */
  private async place(api: Api, i: number, part: Chunk, suffix: string, button: boolean): Promise<number> {
    const markup: InlineKeyboardMarkup | undefined = button
      ? { inline_keyboard: [[{ text: this.deps.stopLabel, callback_data: stopCallback(this.id) }]] }
      : undefined;
    const extra = markup ? { reply_markup: markup } : {};
    const existing = this.messages[i];
    const html = part.html + suffix;
    if (existing && existing.html === html && existing.button === button) return existing.id;
    const put = async (body: string, parse: boolean) => {
      const opts = { ...extra, ...(parse ? { parse_mode: "HTML" as const } : {}) };
      if (!existing) return (await api.sendMessage(this.chatId, body, opts)).message_id;
      await api.editMessageText(this.chatId, existing.id, body, opts).catch((err: unknown) => {
        if (!isNotModified(err)) throw err;
      });
      return existing.id;
    };
    let id: number;
    try {
      id = await put(html, true);
    } catch (err) {
      if (!isEntityError(err)) throw err;
      id = await put(part.plain + suffix, false);
    }
    this.messages[i] = { id, html, button };
    return id;
  }
}

function isEntityError(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && /can't parse entities|message text is empty/i.test(err.description);
}

function isNotModified(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && /message is not modified/i.test(err.description);
}

/** The registry of answers being written, one per chat (a chat's turns run one after another). */
export class LiveAnswers {
  private readonly byChat = new Map<string, LiveAnswer>();

  start(chatId: ChatId, live: LiveAnswer): void {
    this.byChat.set(String(chatId), live);
  }

  end(chatId: ChatId, live: LiveAnswer): void {
    if (this.byChat.get(String(chatId)) === live) this.byChat.delete(String(chatId));
  }

  get(chatId: ChatId): LiveAnswer | undefined {
    return this.byChat.get(String(chatId));
  }
}
