import type { LiloConfig } from "../config.ts";
import { shortenText } from "./request-budget.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { Db } from "../store/db.ts";
import type { ChatLog, ChatLogMessage } from "../store/chat-log.ts";
import type { InboxStore } from "../store/inbox.ts";
import type { JobsStore } from "../store/jobs.ts";
import type { ProfileStore } from "../store/profile.ts";
import type { ModelProblems } from "../store/model-problems.ts";
import type { ModelRegistry } from "../models/registry.ts";
import type { Memory } from "../memory/memory.ts";
import type { DurableJobs } from "../util/durable-jobs.ts";
import { writeTransaction } from "../store/tx.ts";
import { extractMemories } from "../memory/extract.ts";
import { rememberExtraction } from "../memory/remember.ts";
import { formatLocal } from "../util/time.ts";
import { NotFoundError } from "../errors.ts";
import type { TurnContext, TurnStep } from "./types.ts";

/** What recording an answer and running its after-reply jobs need. */
export interface AfterReplyDeps {
  config: LiloConfig;
  clock: Clock;
  logger: Logger;
  db: Db;
  chatLog: ChatLog;
  inbox: InboxStore;
  jobs: JobsStore;
  durable: DurableJobs;
  memory: Memory;
  profile: ProfileStore;
  problems: ModelProblems;
  models: ModelRegistry;
  steps: TurnStep[];
}

/** Payload of every after-reply job: which exchange it is about, and the step's own state. */
interface ExchangeJob {
  userMessageId: number;
  answerId: number;
  state?: unknown;
}

const EXTRACTION = "extraction";
const stepKind = (name: string) => `after:${name}`;

/**
 * Stores the answer (delivery pending until the adapter reports it sent),
 * marks the user message answered and records the after-reply jobs
 * (extraction, each step's `after`) — all in one IMMEDIATE transaction, so
 * a crash leaves either the unanswered message (answered again on start)
 * or the answer with its jobs (resumed on start). Then starts the jobs.
 */
export function recordAnswer(
  deps: AfterReplyDeps,
  ctx: TurnContext,
  answer: { text: string; model: string; mood: string | null; recallAnswer: boolean },
): ChatLogMessage {
  const now = deps.clock.now().toISOString();
  const stored = writeTransaction(deps.db, () => {
    const a = deps.chatLog.append({
      userId: ctx.userId,
      conversationId: ctx.conversationId,
      role: "assistant",
      text: answer.text,
      model: answer.model,
      mood: answer.mood,
      createdAt: now,
      recallAnswer: answer.recallAnswer,
      replyTo: ctx.userMessage.id,
      delivery: "pending",
    });
    deps.inbox.setReplyState(ctx.userMessage.id, "answered", now);
    const base: ExchangeJob = { userMessageId: ctx.userMessage.id, answerId: a.id };
    deps.jobs.add(ctx.userId, EXTRACTION, base, now);
    for (const step of deps.steps) {
      if (step.after) deps.jobs.add(ctx.userId, stepKind(step.name), { ...base, state: ctx.afterState?.[step.name] ?? null }, now);
    }
    return a;
  });
  deps.durable.runPending();
  return stored;
}

/** Registers the handlers of the jobs `recordAnswer` writes. */
export function registerAfterReplyJobs(deps: AfterReplyDeps): void {
  deps.durable.register(EXTRACTION, async (job) => {
    const { user, answer } = exchange(deps, job.payload as ExchangeJob);
    await extractAndRemember(deps, user, answer);
  });
  for (const step of deps.steps) {
    if (!step.after) continue;
    deps.durable.register(stepKind(step.name), async (job) => {
      const payload = job.payload as ExchangeJob;
      const { user, answer } = exchange(deps, payload);
      const ctx: TurnContext = {
        userId: user.userId,
        text: user.text,
        userMessage: user,
        conversationId: user.conversationId,
        isNewConversation: false,
        previousAnswer: undefined,
        now: new Date(user.createdAt),
        extras: [],
        afterState: payload.state === null || payload.state === undefined ? {} : { [step.name]: payload.state },
      };
      await step.after!(ctx, { text: answer.text, messageId: answer.id });
    });
  }
}

function exchange(deps: AfterReplyDeps, p: ExchangeJob): { user: ChatLogMessage; answer: ChatLogMessage } {
  const user = deps.chatLog.get(p.userMessageId);
  const answer = deps.chatLog.get(p.answerId);
  if (!user || !answer) throw new NotFoundError(`The exchange #${p.userMessageId}/#${p.answerId} of this job is gone`);
  return { user, answer };
}

/** The one extraction call after the reply; a malformed answer is counted, never fatal. */
async function extractAndRemember(deps: AfterReplyDeps, user: ChatLogMessage, answer: ChatLogMessage): Promise<void> {
  const { config } = deps;
  const now = deps.clock.now().toISOString();
  const out = await extractMemories(
    deps.models.forRole("extraction"),
    {
      userName: config.persona.userNames[user.userId] ?? "User",
      assistantName: config.persona.name,
      language: config.persona.language,
      // Huge texts are read shortened, as in the turn: the extraction call must fit the model too.
      userText: shortenText(user.text, config.budget.maxInputChars, config.persona.language),
      assistantText: shortenText(answer.text, config.budget.maxInputChars, config.persona.language),
      date: formatLocal(new Date(user.createdAt), config.timezone, config.persona.language),
      knownUserTexts: deps.profile.list(user.userId).map((p) => p.text),
    },
    config.modelCall.maxTokens,
  );
  if (!out.ok) {
    deps.problems.record(user.userId, "extraction", "dropped", out.problem, now);
    deps.logger.warn("extraction answer unusable after one retry", { userId: user.userId, problem: out.problem });
    return;
  }
  if (out.retried) deps.problems.record(user.userId, "extraction", "retried", "first answer unusable", now);
  else if (out.repaired) deps.problems.record(user.userId, "extraction", "repaired", "JSON cut out of surrounding text", now);
  if (out.droppedFacts.length) deps.logger.info("facts not taken from the user's words were dropped", { facts: out.droppedFacts });
  await rememberExtraction(deps, out.extraction, { userId: user.userId, sourceMessageId: answer.id, now });
}
