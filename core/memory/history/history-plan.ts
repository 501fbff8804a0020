/**
 * Who is who in an export, and what an import would write. The person's own
 * lines become their messages; another person's lines keep that person's name
 * and are about them, never the person's own facts; an assistant's answers
 * (ChatGPT, Claude) keep its name and are never Lilo's. Nothing here writes.
 */
import { createHash } from "node:crypto";
import { LiloError } from "../../foundation/errors.ts";
import type { HistoryRow } from "../../foundation/store/history-imports.ts";
import type { ChatExport } from "./history-types.ts";

/** How an export's speaker is taken. */
export type SpeakerRole = "me" | "other" | "assistant";

/** One speaker of the export, with their share of it. */
export interface PlannedSpeaker {
  name: string;
  messages: number;
  as: SpeakerRole;
}

/** What an import would do; `planned` is empty while it is not known who the person is. */
export interface HistoryPlan {
  format: ChatExport["format"];
  fileName: string;
  fileHash: string;
  chats: { title: string; messages: number }[];
  speakers: PlannedSpeaker[];
  /** Earliest and latest message (ISO). */
  from: string;
  to: string;
  /** The speaker taken for the person, and why; undefined: `--me` must say. */
  me: string | undefined;
  meFrom: "option" | "export" | "name" | "only-person" | undefined;
  planned: HistoryRow[];
  /** Lines the readers left out (system lines, media, deleted messages, other chats). */
  skipped: number;
}

/** How to plan. */
export interface PlanOptions {
  fileName: string;
  fileHash: string;
  /** `--me`: the speaker who is the person. */
  me?: string | undefined;
  /** The names Lilo knows the person by (profile, contacts), to recognise them among the speakers. */
  knownNames: string[];
  /** A gap longer than this starts a new conversation, as in live chat. */
  pauseMinutes: number;
}

const fold = (s: string) => s.normalize("NFKC").toLocaleLowerCase().trim();

function speakersOf(x: ChatExport): Map<string, { messages: number; assistant: boolean }> {
  const out = new Map<string, { messages: number; assistant: boolean }>();
  for (const m of x.chats.flatMap((c) => c.messages)) {
    const s = out.get(m.speaker) ?? { messages: 0, assistant: m.assistant };
    s.messages++;
    out.set(m.speaker, s);
  }
  return out;
}

/** The person among the speakers: the option, the export's owner, a name Lilo knows, or the only human. */
function findMe(names: string[], humans: string[], x: ChatExport, o: PlanOptions): Pick<HistoryPlan, "me" | "meFrom"> {
  const match = (want: string) => names.find((n) => fold(n) === fold(want));
  if (o.me !== undefined) {
    const me = match(o.me);
    if (!me) throw new LiloError("invalid-input", `--me "${o.me}" is none of the export's speakers (${names.join(", ")})`);
    return { me, meFrom: "option" };
  }
  const owner = x.owner && match(x.owner);
  if (owner) return { me: owner, meFrom: "export" };
  const known = o.knownNames.map(match).find(Boolean);
  if (known) return { me: known, meFrom: "name" };
  if (humans.length === 1) return { me: humans[0], meFrom: "only-person" };
  return { me: undefined, meFrom: undefined };
}

const keyOf = (speaker: string, at: Date, text: string) =>
  createHash("sha256").update(`${speaker}\u0000${at.toISOString()}\u0000${text}`).digest("hex").slice(0, 32);

/** Plans the import of a read export; throws a sentence when `--me` names nobody in it. */
export function planHistory(x: ChatExport, o: PlanOptions): HistoryPlan {
  const counts = speakersOf(x);
  const names = [...counts.keys()];
  const humans = names.filter((n) => !counts.get(n)!.assistant);
  const { me, meFrom } = findMe(names, humans, x, o);
  const as = (name: string): SpeakerRole => (counts.get(name)!.assistant ? "assistant" : name === me ? "me" : "other");
  const all = x.chats.flatMap((c) => c.messages);
  const times = all.map((m) => m.at.getTime());
  const rows: HistoryRow[] = [];
  let conversation = 0;
  if (me !== undefined) {
    for (const chat of x.chats) {
      let last = -Infinity;
      for (const m of [...chat.messages].sort((a, b) => a.at.getTime() - b.at.getTime())) {
        if (m.at.getTime() - last > o.pauseMinutes * 60_000) conversation++;
        last = m.at.getTime();
        const role = as(m.speaker);
        rows.push({
          role: role === "assistant" ? "assistant" : "user",
          speaker: role === "me" ? null : m.speaker,
          text: m.text,
          createdAt: m.at.toISOString(),
          key: keyOf(m.speaker, m.at, m.text),
          conversation,
        });
      }
    }
  }
  return {
    format: x.format,
    fileName: o.fileName,
    fileHash: o.fileHash,
    chats: x.chats.map((c) => ({ title: c.title, messages: c.messages.length })),
    speakers: names.map((name) => ({ name, messages: counts.get(name)!.messages, as: as(name) })).sort((a, b) => b.messages - a.messages),
    from: new Date(times.reduce((a, b) => Math.min(a, b))).toISOString(),
    to: new Date(times.reduce((a, b) => Math.max(a, b))).toISOString(),
    me,
    meFrom,
    planned: rows,
    skipped: x.skipped,
  };
}
