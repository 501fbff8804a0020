/**
 * Reads a chat export of any known format from its bytes. The format is told
 * by the content, never the file name (ChatGPT's and Claude's exports are
 * both `conversations.json`); a `.zip` is opened and the export inside it
 * read. Whatever is wrong with a file is refused whole, with a sentence that
 * names the line or the field, before anything is written.
 */
import { unzipSync } from "fflate";
import { ZodError } from "zod";
import { LiloError } from "../../foundation/errors.ts";
import { assistantExportKind, readChatGpt, readClaude } from "./assistant-readers.ts";
import { HISTORY_FILE_MAX_BYTES, HISTORY_MESSAGE_MAX_CHARS, type ChatExport, type HistoryFormat } from "./history-types.ts";
import { looksLikeTelegram, readTelegram } from "./telegram-reader.ts";
import { looksLikeWhatsApp, readWhatsApp } from "./whatsapp-reader.ts";

/** How to read a file. */
export interface ReadExportOptions {
  /** The file's name, for the chat's title and the sentences. */
  fileName: string;
  /** Checked against what the content says; `auto` or absent takes the content's word. */
  format?: HistoryFormat | "auto" | undefined;
  /** The person's time zone: exports that write local wall-clock times are read in it. */
  timeZone: string;
  /** Messages later than a day past this are refused as a wrong clock. */
  now: Date;
}

/** The earliest date a message may have: before it, a date is a misread, not history. */
const EARLIEST = Date.UTC(1990, 0, 1);

const refuse = (message: string) => new LiloError("invalid-input", message);

/** A zod failure as "field chats.list.0.messages: expected array". */
const fieldSentence = (file: string, e: ZodError) => {
  const i = e.issues[0];
  return refuse(`${file}: field ${i?.path.length ? i.path.join(".") : "(top)"}: ${i?.message ?? "unexpected content"}`);
};

/** The line of a JSON syntax error, from the character position Node's message gives. */
function jsonLine(text: string, err: unknown): string {
  const at = /position (\d+)/.exec(err instanceof Error ? err.message : "");
  return at ? `line ${text.slice(0, Number(at[1])).split("\n").length}` : "the JSON";
}

/** The text file inside a phone's or Telegram's `.zip`: the chat text or the JSON export. */
function fromZip(bytes: Uint8Array, file: string): { text: string; name: string } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => /\.(txt|json)$/i.test(f.name) && !f.name.startsWith("__MACOSX/") });
  } catch (cause) {
    throw new LiloError("invalid-input", `${file}: a damaged .zip (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
  const names = Object.keys(files);
  const pick = names.find((n) => /(^|\/)(_chat\.txt|result\.json|conversations\.json)$/i.test(n)) ?? names.find((n) => /\.txt$/i.test(n));
  if (!pick) throw refuse(`${file}: the .zip holds no chat (no _chat.txt, .txt, result.json or conversations.json)`);
  return { text: decode(files[pick]!, `${file}/${pick}`), name: pick.replace(/^.*\//, "") };
}

function decode(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new LiloError("invalid-input", `${file}: not UTF-8 text (a garbled or binary file)`, { cause });
  }
}

function readText(text: string, file: string, o: ReadExportOptions): ChatExport {
  const trimmed = text.replace(/^\uFEFF/, "").trimStart();
  // iOS WhatsApp lines start with "[" too: the date after it tells them from JSON.
  if (looksLikeWhatsApp(trimmed)) return readWhatsApp(trimmed, o.fileName.replace(/\.(txt|zip)$/i, ""), o.timeZone);
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (cause) {
      throw new LiloError("invalid-input", `${file}: broken JSON at ${jsonLine(trimmed, cause)} (a truncated or edited export?)`, { cause });
    }
    const kind = assistantExportKind(json) ?? (looksLikeTelegram(json) ? "telegram" : undefined);
    if (!kind) throw refuse(`${file}: JSON, but neither Telegram's result.json nor ChatGPT's or Claude's conversations.json`);
    const read = kind === "chatgpt" ? readChatGpt(json) : kind === "claude" ? readClaude(json) : readTelegram(json, o.timeZone);
    if (read instanceof ZodError) throw fieldSentence(file, read);
    return read;
  }
  throw refuse(`${file}: not a chat export Lilo knows (WhatsApp .txt or .zip, Telegram result.json, ChatGPT or Claude conversations.json)`);
}

/** Every message within the limits, or the sentence naming the first that is not. */
function checkLimits(x: ChatExport, file: string, now: Date): void {
  const latest = now.getTime() + 86_400_000;
  for (const chat of x.chats) {
    chat.messages.forEach((m, i) => {
      const where = `${file}: chat "${chat.title}", message ${i + 1}`;
      if (m.text.length > HISTORY_MESSAGE_MAX_CHARS) throw refuse(`${where} has ${m.text.length} characters; at most ${HISTORY_MESSAGE_MAX_CHARS} are taken`);
      const t = m.at.getTime();
      if (Number.isNaN(t) || t < EARLIEST || t > latest)
        throw refuse(`${where} is dated ${Number.isNaN(t) ? "nowhere" : m.at.toISOString()}, outside 1990 to today`);
    });
  }
  if (!x.chats.some((c) => c.messages.length)) throw refuse(`${file}: a ${x.format} export, but without a single message to import`);
}

/** Reads an export; throws `LiloError("invalid-input")` with the sentence when the file cannot be taken whole. */
export function readExport(bytes: Uint8Array, o: ReadExportOptions): ChatExport {
  const file = o.fileName;
  if (bytes.length > HISTORY_FILE_MAX_BYTES)
    throw refuse(`${file}: ${Math.round(bytes.length / 1048576)} MB; an export of at most ${HISTORY_FILE_MAX_BYTES / 1048576} MB is read`);
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  const { text, name } = isZip ? fromZip(bytes, file) : { text: decode(bytes, file), name: file };
  const x = readText(text, isZip ? `${file}/${name}` : file, { ...o, fileName: isZip ? file : name });
  if (o.format && o.format !== "auto" && o.format !== x.format) throw refuse(`${file}: --format ${o.format}, but the content is a ${x.format} export`);
  checkLimits(x, file, o.now);
  return x;
}
