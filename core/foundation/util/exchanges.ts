import type { ChatLogMessage } from "../store/chat-log.ts";
import { dateFormat } from "./date-format.ts";

/** One exchange: the user's message(s) and Lilo's answer(s) to them. */
type Exchange = ChatLogMessage[];

/**
 * Groups messages (oldest first) into exchanges. An exchange starts with a
 * user message after an answer; a greeting Lilo sent on her own, with no
 * message before it, is an exchange of its own.
 */
function groupExchanges(messages: ChatLogMessage[]): Exchange[] {
  const out: Exchange[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    const prev = last?.[last.length - 1];
    if (!last || (m.role === "user" && prev?.role === "assistant")) out.push([m]);
    else last.push(m);
  }
  return out;
}

/** The newest `max` exchanges of the messages, oldest first. */
export function newestExchanges(messages: ChatLogMessage[], max: number): Exchange[] {
  return max > 0 ? groupExchanges(messages).slice(-max) : [];
}

/** Cuts a text to `max` characters, mid-word if need be; "…" shows that something is missing. */
export function cut(text: string, max: number): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** How to render exchanges for a job's cheat sheet. */
interface TranscriptOptions {
  userName: string;
  /** Lilo's own label: "Ich"/"I", so the day reads as her own memory, not a stranger's log. */
  selfLabel: string;
  userChars: number;
  liloChars: number;
  /** Formats a message time, e.g. "02.12. 14:05". */
  time(iso: string): string;
}

/** One line per message: "time name: text", each cut to its role's length. */
export function renderExchanges(exchanges: Exchange[], o: TranscriptOptions): string {
  return exchanges
    .map((ex) =>
      ex
        .map((m) => {
          const user = m.role === "user";
          return `${o.time(m.createdAt)} ${user ? o.userName : o.selfLabel}: ${cut(m.text, user ? o.userChars : o.liloChars)}`;
        })
        .join("\n"),
    )
    .join("\n\n");
}

/** Short local date and time, "02.12. 14:05" / "02/12 14:05", for transcripts. */
export function shortLocalTime(iso: string, timeZone: string, language: "de" | "en"): string {
  return dateFormat(language === "de" ? "de-DE" : "en-GB", {
    timeZone,
    day: "2-digit",
    month: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(iso));
}
