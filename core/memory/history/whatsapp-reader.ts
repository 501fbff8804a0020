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
 * Dates written with dots (`05.12.26`) put the day first in every locale that
 * writes them so. The parser guesses the order from how the numbers change,
 * and a chat on the same day of several months misleads it. Slashes are left
 * to its guess: they stand for both orders.
 */
function dotDates(text: string): boolean | undefined {
  const first = /^\u200E?\[?\d{1,2}([./-])\d{1,2}\1\d{2,4},? \d/m.exec(text);
  return first?.[1] === "." ? true : undefined;
}

/** Reads one exported chat; `title` names it (the file's name without the extension). */
export function readWhatsApp(text: string, title: string, timeZone: string): ChatExport {
  const clean = text.replace(/^\uFEFF/, "");
  const parsed = parseString(clean, { daysFirst: dotDates(clean) });
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
