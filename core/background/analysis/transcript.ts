/**
 * The transcript the analyst reads (docs/spec.md §10): a header per conversation,
 * then every message with its local time. A greeting Lilo sent on her own is
 * preceded by a note instead of a user line, so the analyst does not think
 * the user wrote something. Over-long messages are cut with a note.
 */
import { ANALYSIS_TEXTS } from "../prompts/analysis.ts";
import { formatLocalShort } from "../../foundation/util/time.ts";
import type { SelectedConversation } from "./selection.ts";

/** How to render: names, language, time zone, the cut. */
interface TranscriptOptions {
  language: "de" | "en";
  timeZone: string;
  liloName: string;
  userNames: Record<string, string>;
  maxMessageChars: number;
}

/** One conversation rendered: its header (repeated when a chunk continues it) and its lines. */
export interface RenderedConversation {
  header: string;
  /** The header for a chunk that continues this conversation. */
  continuedHeader: string;
  lines: string[];
}

/** Renders a conversation: header, then one line per message (local time, speaker, text). */
export function renderConversation(c: SelectedConversation, o: TranscriptOptions): RenderedConversation {
  const t = ANALYSIS_TEXTS[o.language];
  const start = formatLocalShort(new Date(c.startedAt), o.timeZone);
  const title = conversationTitle(c, t.untitled);
  const model = c.startModel ?? c.messages.find((m) => m.role === "assistant" && m.model)?.model ?? t.unknownModel;
  const header = `=== ${t.conversation}: ${title} | ${t.start}: ${start} | ${t.startModel}: ${model} ===`;
  const continuedHeader = `=== ${t.conversation} (${t.continued}): ${title} | ${t.start}: ${start} | ${t.startModel}: ${model} ===`;
  const user = o.userNames[c.userId] ?? c.userId;
  const startDay = start.slice(0, 10);
  const lines: string[] = [];
  for (const m of c.messages) {
    const at = formatLocalShort(new Date(m.createdAt), o.timeZone);
    // Same day as the header: the time suffices; otherwise the date too, so quotes keep their date.
    const stamp = at.slice(0, 10) === startDay ? at.slice(11) : at;
    if (m.proactive) lines.push(`[${stamp}] ${t.speaksUp(o.liloName, user)}`);
    // An imported chat's other party (a friend, ChatGPT) speaks under its own name, never the person's or Lilo's.
    const speaker = m.speaker ?? (m.role === "assistant" ? o.liloName : user);
    lines.push(`[${stamp}] ${speaker}: ${cutMessage(m.text, o.maxMessageChars, o.language)}`);
  }
  return { header, continuedHeader, lines };
}

/** The stored title, else the first thing the user wrote (60 characters), else "untitled". */
function conversationTitle(c: SelectedConversation, untitled: string): string {
  const raw = c.title ?? c.messages.find((m) => m.role === "user" && !m.proactive)?.text ?? "";
  const flat = raw.replace(/\s+/g, " ").trim();
  if (!flat) return untitled;
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}

/** A message over `max` characters is cut, and the cut says how much is missing. */
function cutMessage(text: string, max: number, language: "de" | "en"): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)} ${ANALYSIS_TEXTS[language].cut(text.length - max, text.length)}`;
}

/** The whole transcript as one text (the export): conversations separated by a blank line. */
export function transcriptText(rendered: RenderedConversation[]): string {
  return rendered.map((r) => [r.header, ...r.lines].join("\n")).join("\n\n");
}
