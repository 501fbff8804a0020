import type { Clock } from "../../foundation/ports/clock.ts";
import type { Db } from "../../foundation/store/db.ts";
import type { ChatLog, ChatLogMessage } from "../../foundation/store/chat-log.ts";
import type { InboxStore } from "../../foundation/store/inbox.ts";
import type { JobsStore } from "../../foundation/store/jobs.ts";
import type { DurableJobs } from "../../foundation/util/durable-jobs.ts";
import { writeTransaction } from "../../foundation/store/tx.ts";
import { NotFoundError } from "../../foundation/errors.ts";
import type { AfterReplyTask, Exchange, ScheduledTask } from "./types.ts";
import type { Mood } from "../markers/emotion.ts";

/** Where answers and their after-reply jobs are written, and who runs the jobs. */
export interface ReplyRecorder {
  clock: Clock;
  db: Db;
  chatLog: ChatLog;
  inbox: InboxStore;
  jobs: JobsStore;
  durable: DurableJobs;
}

/** Payload of every after-reply job: which exchange it is about, and the task's own state. */
interface ExchangeJob {
  userMessageId: number;
  answerId: number;
  state?: unknown;
}

/**
 * Stores the answer (delivery pending until the adapter reports it sent),
 * marks the user message answered and records the after-reply work the
 * middleware registered with `ctx.waitUntil` — all in one IMMEDIATE
 * transaction, so a crash leaves either the unanswered message (answered
 * again on start) or the answer with its jobs (resumed on start). Then
 * starts the jobs.
 */
export function recordAnswer(
  deps: ReplyRecorder,
  ctx: { userId: string; conversationId: number; userMessage: { id: number }; scheduled: readonly ScheduledTask[] },
  answer: { text: string; model: string; mood: Mood | null; recallAnswer: boolean; stopped?: boolean },
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
      ...(answer.stopped ? { stopped: true } : {}),
      replyTo: ctx.userMessage.id,
      delivery: "pending",
    });
    deps.inbox.setReplyState(ctx.userMessage.id, "answered", now);
    const base: ExchangeJob = { userMessageId: ctx.userMessage.id, answerId: a.id };
    for (const task of ctx.scheduled) deps.jobs.add(ctx.userId, task.kind, task.state === undefined ? base : { ...base, state: task.state }, now);
    return a;
  });
  deps.durable.runPending();
  return stored;
}

/** Registers the after-reply tasks as durable job handlers: each gets its exchange and its stored state. */
export function registerAfterReplyTasks(deps: { durable: DurableJobs; chatLog: ChatLog }, tasks: readonly AfterReplyTask<never>[]): void {
  for (const task of tasks) {
    deps.durable.register(task.kind, async (job) => {
      const payload = job.payload as ExchangeJob;
      await task.run(exchange(deps.chatLog, payload), (payload.state ?? null) as never);
    });
  }
}

function exchange(chatLog: ChatLog, p: ExchangeJob): Exchange {
  const user = chatLog.get(p.userMessageId);
  const answer = chatLog.get(p.answerId);
  if (!user || !answer) throw new NotFoundError(`The exchange #${p.userMessageId}/#${p.answerId} of this job is gone`);
  return { user, answer };
}
