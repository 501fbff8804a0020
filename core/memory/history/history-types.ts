/** The chat-export formats `lilo import-history` reads. */
export const HISTORY_FORMATS = ["whatsapp", "telegram", "chatgpt", "claude"] as const;
export type HistoryFormat = (typeof HISTORY_FORMATS)[number];

/** One message as an export holds it, before anyone is mapped to the person or to Lilo. */
export interface ExportMessage {
  /** The name the export gives the writer ("Mara", "ChatGPT"). */
  speaker: string;
  /** The writer is an AI assistant (ChatGPT's or Claude's answers), never a person. */
  assistant: boolean;
  text: string;
  at: Date;
}

/** One chat of an export: a WhatsApp chat, a Telegram chat, one ChatGPT or Claude conversation. */
export interface ExportChat {
  title: string;
  messages: ExportMessage[];
}

/** What a reader found in a file. */
export interface ChatExport {
  format: HistoryFormat;
  chats: ExportChat[];
  /** The export's own word on who exported it (Telegram's account name, "You" of an assistant export). */
  owner: string | undefined;
  /** Lines or entries the reader recognised and left out (system lines, media, deleted messages). */
  skipped: number;
}

/** The longest message an import takes, in characters: the same limit as a chat message. */
export const HISTORY_MESSAGE_MAX_CHARS = 16_000;
/** The largest export file an import reads, in bytes. */
export const HISTORY_FILE_MAX_BYTES = 200 * 1024 * 1024;
