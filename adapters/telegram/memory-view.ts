import { InlineKeyboard } from "grammy";
import type { TelegramDeps } from "./context.ts";
import { forgetCallback } from "./render.ts";

/** How many of the newest notes /memory lists. */
export const NEWEST_NOTES = 5;
const CLIP = 200;

/**
 * Shortens `text` to at most `max` characters with "…". Never ends on half
 * an emoji: Telegram refuses a lone surrogate ("text must be encoded in UTF-8").
 */
export function clip(text: string, max = CLIP): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * The /memory view: the notes on the last answer's cheat sheet in this chat
 * and the user's newest notes, each with a "forget" button.
 */
export function memoryOverview(deps: TelegramDeps, userId: string, chatId: string): { text: string; keyboard: InlineKeyboard } {
  const { texts } = deps;
  // Notes forgotten (or corrected) since the answer are left out.
  const used = deps.lilo.memory.getMany(
    userId,
    "notes",
    (deps.lastNotes.get(chatId) ?? []).map((n) => n.id),
  );
  const newest = deps.lilo.memory.list(userId, { store: "notes", limit: NEWEST_NOTES });
  const line = (n: { id: number; text: string }) => `#${n.id} ${clip(n.text)}`;
  const text = [
    used.length ? [texts.notesUsedTitle, ...used.map(line)].join("\n") : texts.notesUsedNone,
    newest.length ? [texts.newestTitle, ...newest.map(line)].join("\n") : texts.newestNone,
  ].join("\n\n");
  const keyboard = new InlineKeyboard();
  const ids = [...new Set([...used, ...newest].map((n) => n.id))];
  for (const id of ids) keyboard.text(texts.forgetButton(id), forgetCallback(id)).row();
  return { text, keyboard };
}

/**
 * Forgets one of the user's notes (row and vector). Another user's note, a
 * corrected one or one that does not exist is refused with the same answer
 * (the core's rule, `lilo.memory.forget`), so ids of other people's notes
 * cannot be probed. Returns the text to show.
 */
export async function forgetNote(deps: TelegramDeps, userId: string, noteId: number): Promise<{ ok: boolean; text: string }> {
  const gone = await deps.lilo.memory.forget(userId, "notes", noteId);
  if (!gone) return { ok: false, text: deps.texts.noSuchNote };
  return { ok: true, text: deps.texts.forgotten(clip(gone.text, 150)) };
}
