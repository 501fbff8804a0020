import type { LiloConfig } from "../../foundation/config/config.ts";
import { modelLabel, type ChatModel } from "../../foundation/ports/chat-model.ts";
import type { ChatHistory } from "../../foundation/store/chat-history.ts";
import type { ChatLog, ChatLogMessage } from "../../foundation/store/chat-log.ts";
import type { Topic, TopicsStore } from "../../foundation/store/topics.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Push, PushOutcome } from "../push/push.ts";
import type { Persona } from "../../conversation/persona/persona.ts";
import type { FeatureContext } from "../feature-context.ts";
import { parseMarkers } from "../../conversation/markers/parse.ts";
import type { MarkerRegistry } from "../../conversation/markers/marker-registry.ts";
import { GREETING_SELF_LABEL, greetingPrompt } from "../prompts/greeting.ts";
import { markIfAddressed } from "../../conversation/topics/mark-addressed.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import { boundariesBlock } from "../../conversation/prompts/boundaries.ts";
import { returnContext, type ReturnContext } from "./context.ts";

/** The collaborators of a pushed greeting; wired once in createLilo. */
export interface GreetingDeps {
  chatLog: ChatLog;
  history: ChatHistory;
  models: ModelRegistry;
  push: Push;
  /** The due 🧠 concern to weave in, marked done when the greeting addresses it. */
  topics: TopicsStore;
  /** The topics slice (`config.topics`): how many meaningful words mark the concern as addressed. */
  topicsConfig: LiloConfig["topics"];
  /** Topics the user asked Lilo never to bring up: left out of the greeting's context, and a greeting touching one is not sent. */
  boundaries?: BoundaryGuard | undefined;
  /** The markers understood, to strip them from the model's text (the registry resolved in createLilo). */
  markers: MarkerRegistry;
}

/** The greeting's configuration slice (`config.greeting`). */
export type GreetingConfig = LiloConfig["greeting"];

/** Everything a greeting uses: collaborators, slice, persona, shared context. */
interface Greeting {
  deps: GreetingDeps;
  config: GreetingConfig;
  persona: Persona;
  ctx: FeatureContext;
}

/** Why the scheduled greeting would not go out now (and why a greeting was not written). */
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
  /** The user wrote while the greeting was being written (`text` is what was written). */
  | "user-returned"
  | "empty-answer"
  /** The greeting touched a topic the user asked Lilo never to bring up: not sent. */
  | "boundary";

/** The outcome of one greeting attempt. */
export type GreetingResult =
  /** Delivered and stored (chat log, proactive); `concern` is the 🧠 topic offered and whether the addressed-check marked it done. */
  | { kind: "sent"; text: string; messageId?: number; concern?: { topicId: number; addressed: boolean } }
  /** Not written, or written and not sent (`user-returned` carries the text). */
  | { kind: "skipped"; reason: GreetingReason; text?: string }
  /** Written, but the push was refused or failed (quiet hours, no transport, queued, error): nothing stored. */
  | { kind: "not-delivered"; push: Exclude<PushOutcome, "sent">; text: string }
  /** The model call failed (`error` in English, secrets masked; `cause` for `describeError(cause, language)`); the next run tries again, since nothing was stored. */
  | { kind: "failed"; error: string; cause: unknown };

/**
 * Why the scheduled greeting would not go out now, or undefined when it would
 * (docs/spec.md §9, Beyond): opted in, outside quiet hours, silent for `minHours`, no greeting within
 * `minHours`, and the last greeting answered.
 */
export function greetingBlocker({ deps, config }: Greeting, userId: string, now: Date): GreetingReason | undefined {
  if (!deps.push.target(userId)) return "not-opted-in";
  if (deps.push.quietNow()) return "quiet-hours";
  const last = deps.chatLog.lastMessage(userId);
  if (!last) return "no-conversation";
  if (last.proactive) return "unanswered";
  const window = config.minHours * 3_600_000;
  if (now.getTime() - Date.parse(last.createdAt) < window) return "recent-chat";
  const greeted = deps.history.lastProactiveAt(userId);
  if (greeted && now.getTime() - Date.parse(greeted) < window) return "greeted-recently";
  return undefined;
}

/** A greeting written by the chat model, not yet sent or stored. */
interface GreetingDraft {
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
export async function draftGreeting({ deps, config, persona, ctx }: Greeting, userId: string, now: Date): Promise<GreetingDraft | undefined> {
  const lang = persona.language;
  const name = persona.userName(userId);
  const messages = deps.history.latest(userId, config.messages);
  const fence = deps.boundaries?.for(userId);
  const unfenced = fence ? fence.filter(messages, (m) => m.text) : messages;
  const context = returnContext(unfenced, now, { timeZone: ctx.timeZone, language: lang, userName: name, selfLabel: GREETING_SELF_LABEL[lang] });
  const after = messages[messages.length - 1];
  if (!context || !after) return undefined;
  const due = deps.topics.due(userId, now.toISOString());
  const concern = (fence ? fence.filter(due, (t) => t.text) : due).find((t) => t.kind === "concern");
  const prompt = greetingPrompt({
    language: lang,
    persona: [persona.chatPrompt(userId), boundariesBlock(lang, fence?.list ?? [])].filter(Boolean).join("\n\n"),
    userName: name,
    context,
    concern: concern?.text,
  });
  const model = deps.models.forRole("chat");
  const reply = await model.complete({
    system: prompt.system,
    messages: [{ role: "user", content: prompt.user }],
    maxTokens: ctx.maxTokens,
    temperature: 0.8,
    purpose: "greeting",
    userId,
  });
  // Markers have no effect in a greeting; the user must never see one.
  const text = parseMarkers(reply.text, deps.markers).text.trim();
  return { text, model, context, after, ...(concern ? { concern } : {}) };
}

/**
 * One greeting attempt: the scheduled rules unless `force` (opt-in always),
 * then write, push, and — only when the push was delivered — store it in the
 * chat log as Lilo's proactive message, so the next turn sees it in the
 * history. What was not delivered is not stored: she never said it.
 */
export async function greet(g: Greeting, userId: string, opts: { force?: boolean } = {}): Promise<Exclude<GreetingResult, { kind: "failed" }>> {
  const { deps, ctx } = g;
  const now = ctx.clock.now();
  const blocker = greetingBlocker(g, userId, now);
  // Forcing skips the timing rules, never quiet hours: the push would be dropped after the model call.
  if (blocker === "not-opted-in" || blocker === "no-conversation" || blocker === "quiet-hours" || (blocker && !opts.force))
    return { kind: "skipped", reason: blocker };
  const draft = await draftGreeting(g, userId, now);
  if (!draft) return { kind: "skipped", reason: "no-conversation" };
  if (!draft.text) return { kind: "skipped", reason: "empty-answer" };
  if (deps.boundaries?.for(userId).about(draft.text)) return { kind: "skipped", reason: "boundary", text: draft.text };
  if (deps.chatLog.lastMessage(userId)?.id !== draft.after.id) return { kind: "skipped", reason: "user-returned", text: draft.text };
  // Stored as proactive by the delivery (here, or by the running bot when queued from the CLI).
  const delivered = await deps.push.sendDetailed(userId, { kind: "greeting", text: draft.text }, { after: { proactive: { model: modelLabel(draft.model) } } });
  if (delivered.outcome !== "sent") return { kind: "not-delivered", push: delivered.outcome, text: draft.text };
  const messageId = delivered.messageId;
  const addressed = { config: { topics: deps.topicsConfig }, clock: ctx.clock, logger: ctx.logger, topics: deps.topics };
  const concern = draft.concern && { topicId: draft.concern.id, addressed: markIfAddressed(addressed, draft.concern, draft.text) };
  ctx.logger.info("greeting sent", { userId, messageId, pause: draft.context.pause });
  return { kind: "sent", text: draft.text, ...(messageId !== undefined ? { messageId } : {}), ...(concern ? { concern } : {}) };
}
