/**
 * WhatsApp's "export chat": a `.txt` (or the `.zip` the phone shares, which
 * holds it beside the media). Android and iOS write different line heads and
 * each locale its own date order; whatsapp-chat-parser knows them. What it
 * cannot know is the sender's time zone: it builds each date from the wall
 * clock in the file, which is the phone's local time, so the wall clock is
 * read back and placed in the person's zone.
 */
import { parseString } from "whatsapp-chat-parser";
import { wallTimeIn } from "../../foundation/util/time.ts";
import type { ChatExport, ExportMessage } from "./history-types.ts";

/**
 * Bodies that stand for something not in the file: media left out of the
 * export, deleted messages, view-once media. iOS puts an invisible
 * left-to-right mark before them.
 */
const NOT_SPEECH = [
  /^<(media omitted|medien ausgeschlossen|anhang: .*|attached: .*)>$/i,
  /^(image|video|audio|sticker|gif|document|contact card|bild|audio|sticker|gif|dokument|kontaktkarte) (omitted|weggelassen)$/i,
  /^(this message was deleted|you deleted this message|diese nachricht wurde gelöscht\.?|du hast diese nachricht gelöscht\.?)$/i,
  /^(null|<this message was edited>|<diese nachricht wurde bearbeitet>)$/i,
  /^(messages and calls are end-to-end encrypted|nachrichten und anrufe sind ende-zu-ende-verschlüsselt)\b/i,
];

/** Whether a text looks like a WhatsApp export: its first lines start with a date the way the exports do. */
export function looksLikeWhatsApp(text: string): boolean {
  const head = text.replace(/^\uFEFF/, "").split(/\r?\n/, 5);
  return head.some((l) => /^\u200E?\[?\d{1,4}[./-]\d{1,2}[./-]\d{1,4},? \d{1,2}[:.]\d{2}/.test(l));
}

/**
 * Whether the export's dates put the day first, where the file itself tells
 * and the parser's guess (from numbers above 12 and how the numbers change)
 * can go wrong: dots (`05.12.26`) are day-first wherever they are written,
 * and a chat on the same day of several months misleads the guess. Slashes
 * with a 12-hour clock (`2/3/25, 8:01 PM`) are the American month-first
 * layout unless a first number above 12 says otherwise; a short chat rarely
 * has one, and the guess then reads it day-first.
 */
function daysFirst(text: string): boolean | undefined {
  const heads = [...text.matchAll(/^\u200E?\[?(\d{1,2})([./-])\d{1,2}\2\d{2,4},? (\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\s?([ap]\.?\s?m\.?)?)?/gim)];
  if (heads.length === 0) return undefined;
  if (heads[0]![2] === ".") return true;
  if (heads[0]![2] !== "/" || !heads.some((h) => h[4])) return undefined;
  return heads.some((h) => Number(h[1]) > 12) ? undefined : false;
}

/** Reads one exported chat; `title` names it (the file's name without the extension). */
export function readWhatsApp(text: string, title: string, timeZone: string): ChatExport {
  const clean = text.replace(/^\uFEFF/, "");
  const parsed = parseString(clean, { daysFirst: daysFirst(clean) });
  const messages: ExportMessage[] = [];
  let skipped = 0;
  for (const m of parsed) {
    const body = m.message.replace(/[\u200E\u200F]/g, "").trim();
    if (m.author === null || !body || NOT_SPEECH.some((re) => re.test(body))) {
      skipped++;
      continue;
    }
    const d = m.date;
    const at = wallTimeIn(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()), timeZone);
    messages.push({ speaker: m.author.replace(/[\u200E\u200F\u202A-\u202E]/g, "").trim(), assistant: false, text: body, at });
  }
  return { format: "whatsapp", chats: [{ title, messages }], owner: undefined, skipped };
}
