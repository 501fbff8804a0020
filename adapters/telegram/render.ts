import { GrammyError, InlineKeyboard, type Api } from "grammy";
import type { InlineKeyboardButton, InlineKeyboardMarkup, Message, ReactionTypeEmoji } from "grammy/types";
import { describeError, type Logger, type Question } from "../../core/index.ts";
import { type Mood, normalizeText } from "../../core/internal.ts";
import { MOOD_REACTIONS } from "./reactions.ts";
import { renderChunks, type Chunk } from "../shared/format.ts";

/**
 * Showing the core's output on Telegram: safe HTML with a plain-text
 * fallback, long answers split, yes/no questions as inline buttons, moods
 * as reactions, and "typing…" while Lilo works.
 */

/** Telegram chat ids are numbers; push targets store them as strings. */
export type ChatId = number | string;

/** How often "typing…" is repeated; Telegram shows it for about 5 s. */
export const TYPING_EVERY_MS = 4_000;

/**
 * Did Telegram refuse our HTML (unparsable, or nothing visible left, e.g. an
 * empty code block)? Then the same part goes out as plain text.
 */
function isEntityError(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && /can't parse entities|message text is empty/i.test(err.description);
}

/** Sends one part as HTML, or as its Markdown source when Telegram cannot parse the HTML. */
async function sendChunk(api: Api, chatId: ChatId, chunk: Chunk, logger: Logger, markup?: InlineKeyboardMarkup): Promise<Message.TextMessage> {
  const extra = markup ? { reply_markup: markup } : {};
  try {
    return await api.sendMessage(chatId, chunk.html, { parse_mode: "HTML", ...extra });
  } catch (err) {
    if (!isEntityError(err)) throw err;
    logger.warn("telegram refused the HTML, sending plain text", { error: describeError(err) });
    return api.sendMessage(chatId, chunk.plain, extra);
  }
}

/**
 * Sends a Markdown answer as one or more messages of at most 4,096
 * characters; the keyboard, if any, goes on the last one. Returns the sent messages.
 */
export async function sendText(api: Api, chatId: ChatId, text: string, logger: Logger, markup?: InlineKeyboardMarkup): Promise<Message.TextMessage[]> {
  // Half an emoji anywhere (a push, a stored note) would make Telegram refuse the whole message.
  const chunks = renderChunks(normalizeText(text));
  const sent: Message.TextMessage[] = [];
  for (const [i, chunk] of chunks.entries()) {
    sent.push(await sendChunk(api, chatId, chunk, logger, i === chunks.length - 1 ? markup : undefined));
  }
  return sent;
}

/** Replaces a message's text (and removes its buttons), with the same HTML fallback. */
export async function editText(api: Api, chatId: ChatId, messageId: number, text: string, logger: Logger): Promise<void> {
  // An edit cannot become several messages: the outcome texts are short, the first part is enough.
  const [chunk] = renderChunks(normalizeText(text));
  if (!chunk) return;
  try {
    await api.editMessageText(chatId, messageId, chunk.html, { parse_mode: "HTML" });
  } catch (err) {
    if (!isEntityError(err)) throw err;
    logger.warn("telegram refused the HTML of an edit, using plain text", { error: describeError(err) });
    await api.editMessageText(chatId, messageId, chunk.plain);
  }
}

/** Callback data of a question button: `q:<question id>:yes|no` (well under Telegram's 64 bytes). */
export function questionCallback(questionId: number, answer: "yes" | "no"): string {
  return `q:${questionId}:${answer}`;
}

/** Callback data of a "forget this note" button. */
export function forgetCallback(noteId: number): string {
  return `f:${noteId}`;
}

/** What a button press means, or undefined for data this adapter did not create. */
export function parseCallback(data: string): { kind: "answer"; questionId: number; answer: "yes" | "no" } | { kind: "forget"; noteId: number } | undefined {
  const q = /^q:(\d+):(yes|no)$/.exec(data);
  if (q) return { kind: "answer", questionId: Number(q[1]), answer: q[2] as "yes" | "no" };
  const f = /^f:(\d+)$/.exec(data);
  if (f) return { kind: "forget", noteId: Number(f[1]) };
  return undefined;
}

/** The core's yes/no question as one row of inline buttons labelled with its choices. */
export function questionKeyboard(question: Question): InlineKeyboard {
  return InlineKeyboard.from([question.choices.map((c) => InlineKeyboard.text(c.label, questionCallback(question.id, c.value)))]);
}

/** Sends a question with its buttons; returns the id of the message that carries them. */
export async function sendQuestion(api: Api, chatId: ChatId, question: Question, logger: Logger): Promise<number | undefined> {
  return (await sendText(api, chatId, question.text, logger, questionKeyboard(question))).at(-1)?.message_id;
}

/** Replaces a message's buttons (none: `[]`). A message that is gone or unchanged is no error worth more than a debug line. */
export async function setKeyboard(api: Api, chatId: ChatId, messageId: number, rows: InlineKeyboardButton[][], logger: Logger): Promise<void> {
  try {
    await api.editMessageReplyMarkup(chatId, messageId, { reply_markup: { inline_keyboard: rows } });
  } catch (err) {
    logger.debug("telegram keyboard not changed", { error: describeError(err) });
  }
}

/** The reaction emoji for a mood (the core already normalised it to one of the eight). */
export function moodReaction(mood: Mood | undefined): ReactionTypeEmoji["emoji"] | undefined {
  return mood ? MOOD_REACTIONS[mood] : undefined;
}

/**
 * Shows Lilo's mood as a reaction on the user's message. A chat that does
 * not allow reactions only loses the mood, so a refusal is logged, not thrown.
 */
export async function react(api: Api, chatId: ChatId, messageId: number, mood: Mood | undefined, logger: Logger): Promise<void> {
  const emoji = moodReaction(mood);
  if (emoji) await reactWith(api, chatId, messageId, emoji, logger);
}

/** Puts one emoji as a reaction on a message; a refusal is logged, not thrown. */
export async function reactWith(api: Api, chatId: ChatId, messageId: number, emoji: ReactionTypeEmoji["emoji"], logger: Logger): Promise<void> {
  try {
    await api.setMessageReaction(chatId, messageId, [{ type: "emoji", emoji }]);
  } catch (err) {
    logger.warn("telegram reaction failed", { emoji, error: describeError(err) });
  }
}

/**
 * Runs `work` while showing "typing…" (or another chat action) in the chat, repeated every 4 s
 * until it is done. A failed chat action is cosmetic and only logged.
 */
export async function withTyping<T>(
  api: Api,
  chatId: ChatId,
  logger: Logger,
  work: () => Promise<T>,
  everyMs = TYPING_EVERY_MS,
  action: "typing" | "record_voice" = "typing",
): Promise<T> {
  const ping = () => api.sendChatAction(chatId, action).catch((err: unknown) => logger.debug("chat action failed", { action, error: describeError(err) }));
  void ping();
  const timer = setInterval(() => void ping(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
