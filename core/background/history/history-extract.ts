/**
 * One extraction call over a piece of an imported chat, its JSON answer
 * validated by zod and sorted by whom each item is about: the person's own
 * facts only from their own lines, another person's as about that person,
 * nothing about an assistant of the export or about Lilo.
 */
import { z } from "zod";
import type { ChatModel } from "../../foundation/ports/chat-model.ts";
import { completeJson } from "../../foundation/util/model-json.ts";
import { STORE_VALUES, type StoreValues } from "../../foundation/store/values.ts";
import { wordsOnlyFromAssistant } from "../../conversation/extraction/provenance.ts";
import { normalizeSubject, type Subject } from "../../conversation/extraction/subject.ts";
import type { HistoryFollowup } from "./history-followups.ts";
import { historySystemPrompt, historyUserPrompt, type HistoryPromptPeople } from "./history-prompt.ts";

const item = z.object({ text: z.string(), about: z.string().optional() });

/** The answer's shape; each item's values are checked against its store's rules one by one. */
const historySchema = z.object({
  facts: z.array(item).default([]),
  profile: z.array(z.object({ category: z.unknown(), text: z.unknown() })).default([]),
  important: z.array(item.extend({ weight: z.unknown().optional() })).default([]),
});

/** The answer of a recent conversation's call, which also asks for follow-ups; an old one's answer never yields any. */
const recentSchema = historySchema.extend({
  followups: z.array(z.object({ text: z.unknown(), date: z.unknown().optional() })).default([]),
});

/** Either answer: an old conversation's has no follow-ups. */
type HistoryAnswer = z.infer<typeof historySchema> & { followups?: z.infer<typeof recentSchema>["followups"] };

/** A follow-up's text within the topics store's rules, and its day when it is a calendar day. */
const followupValues = z.object({ text: STORE_VALUES.topics.shape.text, date: z.iso.date().nullish() });

/** What one piece of history yields, each item within its store's rules. */
export interface HistoryExtraction {
  facts: { text: string; about: Subject }[];
  profile: StoreValues<"profile">[];
  important: { text: string; weight: number; about: Subject }[];
  /** Plans to ask about later; always empty for a call that did not ask for them. */
  followups: HistoryFollowup[];
  /** Items left out: leaning on another speaker's words, about an assistant, or breaking a store's rule. */
  dropped: string[];
}

/** The piece to read. */
export interface HistoryPiece {
  people: HistoryPromptPeople;
  title: string;
  /** Transcript lines, `[time] Name: text`. */
  lines: string[];
  /** The person's own texts and everyone else's, for the guard on the person's facts. */
  ownTexts: string[];
  otherTexts: string[];
  /** The conversation ended recently: the call asks for follow-ups too. */
  followups: boolean;
}

/** The call's outcome: the items, or the problem of an answer that was no usable JSON; with the characters sent and received. */
export type HistoryCall =
  | { ok: true; extraction: HistoryExtraction; sentChars: number; receivedChars: number }
  | { ok: false; problem: string; sentChars: number; receivedChars: number };

/** Runs the call; a model error (budget spent, server down) is thrown to the caller. */
export async function extractHistoryPiece(model: ChatModel, piece: HistoryPiece, maxTokens: number): Promise<HistoryCall> {
  const system = historySystemPrompt(piece.people, { followups: piece.followups });
  const user = historyUserPrompt(piece.title, piece.lines);
  // An old conversation's answer is read by the schema without follow-ups: whatever the model adds of them is dropped.
  const schema: z.ZodType<HistoryAnswer> = piece.followups ? recentSchema : historySchema;
  const answer = await completeJson(model, { system, messages: [{ role: "user", content: user }], schema, maxTokens });
  const sizes = { sentChars: system.length + user.length, receivedChars: answer.raw.length };
  if (!answer.ok) return { ok: false, problem: answer.problem, ...sizes };
  return { ok: true, extraction: sortByWhom({ followups: [], ...answer.value }, piece), ...sizes };
}

function sortByWhom(value: Required<HistoryAnswer>, piece: HistoryPiece): HistoryExtraction {
  const { people } = piece;
  const names = { userName: people.userName, assistantName: people.assistantName };
  const assistants = new Set(people.others.filter((o) => o.assistant).map((o) => o.name.toLowerCase()));
  const ignore = [people.userName, people.meName, ...people.others.map((o) => o.name)];
  const others = piece.otherTexts.join("\n");
  const subject = (about: string | undefined): Subject => {
    const s = normalizeSubject(about, names) ?? "user";
    return s.toLowerCase() === people.meName.toLowerCase() ? "user" : s;
  };
  // The person's facts may not lean on words only the others wrote: a friend's words are never the person's own facts.
  const ownWords = (text: string) => wordsOnlyFromAssistant(text, piece.ownTexts, others, ignore).length === 0;
  const dropped: string[] = [];
  const keep = (text: string, about: Subject): boolean => {
    const ok = about === "lilo" || assistants.has(about.toLowerCase()) ? false : about === "user" ? ownWords(text) : true;
    if (!ok) dropped.push(text);
    return ok;
  };
  const facts = value.facts.map((f) => ({ text: f.text.trim(), about: subject(f.about) })).filter((f) => f.text && keep(f.text, f.about));
  const profile = value.profile.flatMap((p) => {
    const r = STORE_VALUES.profile.safeParse(p);
    if (!r.success) dropped.push(JSON.stringify(p).slice(0, 200));
    return r.success && keep(r.data.text, "user") ? [r.data] : [];
  });
  const important = value.important.flatMap((i) => {
    const r = STORE_VALUES.important.safeParse({ text: i.text, weight: typeof i.weight === "string" ? Number(i.weight) : (i.weight ?? 1) });
    if (!r.success) dropped.push(i.text.slice(0, 200));
    const about = subject(i.about);
    return r.success && keep(r.data.text, about) ? [{ text: r.data.text, weight: r.data.weight ?? 1, about }] : [];
  });
  // A plan to ask about is the person's own: one that leans on another speaker's words is not theirs to be asked about.
  const followups = value.followups.flatMap((f) => {
    const r = followupValues.safeParse(f);
    if (!r.success) dropped.push(JSON.stringify(f).slice(0, 200));
    return r.success && keep(r.data.text, "user") ? [{ text: r.data.text, date: r.data.date ?? undefined }] : [];
  });
  return { facts, profile, important, followups, dropped };
}
