import { GrammyError, type Api } from "grammy";
import { describeError, type Lilo, type Logger, type TurnResult } from "../../core/index.ts";
import { sendText, type ChatId } from "./render.ts";
import type { LiveAnswer } from "./live-answer.ts";

/** Plain-text parts when Telegram refuses the formatted answer: short enough for any limit. */
const FALLBACK_PART_CHARS = 2_000;

/**
 * Sends a core answer and records its delivery: as new messages, or over the
 * messages that showed it while it was written (`live`, the edit fallback;
 * drafts need no such care, they vanish when the answer arrives). When Telegram refuses the
 * rendered text (a 400), the same words go out as plain text in shorter
 * parts; when that fails too, the answer is marked failed (so /retry redoes
 * the turn) and the error goes up to be reported.
 */
export async function deliverAnswer(lilo: Lilo, api: Api, chatId: ChatId, result: TurnResult, logger: Logger, live?: LiveAnswer): Promise<number[]> {
  const ids: number[] = [];
  // A message the budget's cap held back, the person told already today: nothing to say (runTurn reacts with 😴).
  if (result.paused && !result.text) return ids;
  try {
    if (live?.ownsDelivery()) ids.push(...(await live.finish(result.text)));
    else ids.push(...(await sendText(api, chatId, result.text, logger)).map((m) => m.message_id));
  } catch (err) {
    if (!(err instanceof GrammyError && err.error_code === 400)) return markFailed(lilo, result, err);
    logger.warn("telegram refused the answer, sending it as plain text in parts", { error: describeError(err) });
    try {
      for (const part of plainParts(result.text)) ids.push((await api.sendMessage(chatId, part)).message_id);
    } catch (again) {
      return markFailed(lilo, result, again);
    }
  }
  if (result.answerMessageId !== undefined) lilo.inbox.delivered(result.answerMessageId);
  return ids;
}

function markFailed(lilo: Lilo, result: TurnResult, err: unknown): never {
  if (result.answerMessageId !== undefined) lilo.inbox.deliveryFailed(result.answerMessageId);
  throw err;
}

/** The text in parts of at most FALLBACK_PART_CHARS characters, cut at line or word ends where possible. */
export function plainParts(text: string): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > FALLBACK_PART_CHARS) {
    const window = rest.slice(0, FALLBACK_PART_CHARS);
    const cut = Math.max(window.lastIndexOf("\n"), window.lastIndexOf(" "));
    const at = cut > FALLBACK_PART_CHARS / 2 ? cut : FALLBACK_PART_CHARS;
    parts.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}
