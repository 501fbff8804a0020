import type { LiloConfig } from "../config.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import { modelLabel, type ChatModel } from "../ports/chat-model.ts";
import type { ChatHistory } from "../store/chat-history.ts";
import type { ChatLog, ChatLogMessage } from "../store/chat-log.ts";
import type { ShortTermStore } from "../store/short-term.ts";
import type { Topic, TopicsStore } from "../store/topics.ts";
import type { Db } from "../store/db.ts";
import type { ModelRegistry } from "../models/registry.ts";
import type { Push, PushOutcome } from "../push/push.ts";
import { parseMarkers } from "../markers/parse.ts";
import { personaPrompt } from "../persona/persona-prompt.ts";
import { GREETING_SELF_LABEL, greetingPrompt } from "../prompts/greeting.ts";
import { userName } from "../persona/persona.ts";
import { markIfAddressed } from "../topics/mark-addressed.ts";
import { returnContext, type ReturnContext } from "./context.ts";

/** What a pushed greeting needs; wired once in createLilo. */
export interface GreetingDeps {
  config: LiloConfig;
  clock: Clock;
  logger: Logger;
  chatLog: ChatLog;
  history: ChatHistory;
  models: ModelRegistry;
  push: Push;
  topics: TopicsStore;
  shortTerm: ShortTermStore;
  db: Db;
}

/** Why no greeting went out. */
export type GreetingReason =
  /** No push target: the user never said `/push on`. */
  | "not-opted-in"
  /** Nothing to greet from: the user never wrote. */
  | "no-conversation"
  /** Lilo's last greeting is still unanswered: she never writes twice into silence. */
  | "unanswered"
  /** The user's last message is younger than `greeting.minHours`. */
  | "recent-chat"
  /** Lilo greeted less than `greeting.minHours` ago. */
  | "greeted-recently"
  /** Quiet hours: the push would be held back, so no model call is spent on it. */
  | "quiet-hours"
  /** The user wrote while the greeting was being written. */
  | "user-returned"
  | "empty-answer"
  /** Push refused or failed (quiet hours, no transport, error): see `push`; nothing stored. */
  | "not-delivered"
  /** The model call failed (see `error`). */
  | "failed";

/** The outcome of one greeting attempt. */
export interface GreetingResult {
  sent: boolean;
  text?: string;
  /** The stored greeting (chat log, proactive). */
  messageId?: number;
  push?: PushOutcome;
  /** The 🧠 concern offered to the greeting, and whether the addressed-check marked it done. */
  concern?: { topicId: number; addressed: boolean };
  reason?: GreetingReason;
  error?: string;
}

/**
 * Why the scheduled greeting would not go out now, or undefined when it would
 * (SPEC §9, Beyond): opted in, outside quiet hours, silent for `minHours`, no greeting within
 * `minHours`, and the last greeting answered.
 */
export function greetingBlocker(deps: GreetingDeps, userId: string, now: Date): GreetingReason | undefined {
  if (!deps.push.target(userId)) return "not-opted-in";
  if (deps.push.quietNow()) return "quiet-hours";
  const last = deps.chatLog.lastMessage(userId);
  if (!last) return "no-conversation";
  if (last.proactive) return "unanswered";
  const window = deps.config.greeting.minHours * 3_600_000;
  if (now.getTime() - Date.parse(last.createdAt) < window) return "recent-chat";
  const greeted = deps.history.lastProactiveAt(userId);
  if (greeted && now.getTime() - Date.parse(greeted) < window) return "greeted-recently";
  return undefined;
}

/** A greeting written by the chat model, not yet sent or stored. */
export interface GreetingDraft {
  text: string;
  model: ChatModel;
  context: ReturnContext;
  /** The last message the greeting was written after. */
  after: ChatLogMessage;
  concern?: Topic;
}

/**
 * Writes a greeting from the last messages, with the pause and today's date
 * computed here and a due 🧠 concern to weave in; undefined without any
 * earlier message. Markers are stripped. Model failures throw.
 */
export async function draftGreeting(deps: GreetingDeps, userId: string, now: Date): Promise<GreetingDraft | undefined> {
  const { config } = deps;
  const lang = config.persona.language;
  const name = userName(config, userId);
  const messages = deps.history.latest(userId, config.greeting.messages);
  const context = returnContext(messages, now, { timeZone: config.timezone, language: lang, userName: name, selfLabel: GREETING_SELF_LABEL[lang] });
  const after = messages[messages.length - 1];
  if (!context || !after) return undefined;
  const concern = deps.topics.due(userId, now.toISOString()).find((t) => t.kind === "concern");
  const prompt = greetingPrompt({
    language: lang,
    persona: personaPrompt({ name: config.persona.name, language: lang, userName: name }),
    userName: name,
    context,
    concern: concern?.text,
  });
  const model = deps.models.forRole("chat");
  const reply = await model.complete({ system: prompt.system, messages: [{ role: "user", content: prompt.user }], maxTokens: config.modelCall.maxTokens, temperature: 0.8 });
  // Markers have no effect in a greeting; the user must never see one.
  const text = parseMarkers(reply.text).text.trim();
  return { text, model, context, after, ...(concern ? { concern } : {}) };
}

/**
 * One greeting attempt: the scheduled rules unless `force` (opt-in always),
 * then write, push, and — only when the push was delivered — store it in the
 * chat log as Lilo's proactive message, so the next turn sees it in the
 * history. What was not delivered is not stored: she never said it.
 */
export async function greet(deps: GreetingDeps, userId: string, opts: { force?: boolean } = {}): Promise<GreetingResult> {
  const now = deps.clock.now();
  const blocker = greetingBlocker(deps, userId, now);
  // Forcing skips the timing rules, never quiet hours: the push would be dropped after the model call.
  if (blocker === "not-opted-in" || blocker === "no-conversation" || blocker === "quiet-hours" || (blocker && !opts.force)) return { sent: false, reason: blocker };
  const draft = await draftGreeting(deps, userId, now);
  if (!draft) return { sent: false, reason: "no-conversation" };
  if (!draft.text) return { sent: false, reason: "empty-answer" };
  if (deps.chatLog.lastMessage(userId)?.id !== draft.after.id) return { sent: false, reason: "user-returned", text: draft.text };
  // Stored as proactive by the delivery (here, or by the running bot when queued from the CLI).
  const delivered = await deps.push.sendDetailed(userId, { kind: "greeting", text: draft.text }, { after: { proactive: { model: modelLabel(draft.model) } } });
  const push = delivered.outcome;
  if (push !== "sent") return { sent: false, reason: "not-delivered", push, text: draft.text };
  const messageId = delivered.messageId;
  const concern = draft.concern && { topicId: draft.concern.id, addressed: markIfAddressed(deps, draft.concern, draft.text) };
  deps.logger.info("greeting sent", { userId, messageId, pause: draft.context.pause });
  return { sent: true, text: draft.text, messageId, push, ...(concern ? { concern } : {}) };
}

