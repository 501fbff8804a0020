/**
 * The chat turn's wiring: each middleware, and the services inside the turn
 * (sheet, answering, corrections, replies), built from the groups of
 * services with exactly the dependencies it declares. core/api/pipeline.ts
 * orders them.
 */
import type { RemindersApi } from "../reminders-api.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Budget } from "../../foundation/usage/budget.ts";
import type { BudgetTold } from "../../foundation/usage/budget-told.ts";
import type { DurableJobs } from "../../foundation/util/durable-jobs.ts";
import type { TurnMiddleware } from "../../conversation/turn/types.ts";
import type { Questions } from "../../conversation/questions/questions.ts";
import type { Lookups } from "../../lookups/lookups.ts";
import type { ToolCalling } from "../../lookups/tool-calling.ts";
import { describeError } from "../../foundation/errors.ts";
import { receiveMessage, storeMessage } from "../../conversation/turn/receive.ts";
import { registerAfterReplyTasks } from "../../conversation/turn/after-reply.ts";
import { answerWithModel } from "../../conversation/turn/answer.ts";
import { createAnswering, type Answering } from "../../conversation/turn/answering.ts";
import { createTurnSheet, type TurnSheet } from "../../conversation/turn/sheet.ts";
import { messageVectorsAfterReply, messageVectorsTask } from "../../conversation/turn/message-vectors-step.ts";
import { finishStored } from "../../conversation/turn/resume.ts";
import { summarizePrevious } from "../../conversation/turn/short-term-summary.ts";
import { extractAfterReply, extractionTask } from "../../conversation/extraction/extract-after-reply.ts";
import { pendingAnswer } from "../../conversation/correction/pending-answer-step.ts";
import { correction } from "../../conversation/correction/correction-step.ts";
import { markedWrong } from "../../conversation/correction/marked-wrong-step.ts";
import { Corrections } from "../../conversation/correction/corrections.ts";
import { diaryQuestion } from "../../background/diary/diary-question-step.ts";
import { returnGreeting } from "../../background/greeting/return-step.ts";
import { dueTopic } from "../../conversation/topics/due-topic-step.ts";
import { budgetNotice } from "../../conversation/turn/budget-notice.ts";
import { chatMarkerNames } from "../../conversation/tools/chat-markers.ts";
import type { FetchDeps } from "../../conversation/markers/fetch.ts";
import { boundaryStep } from "../../conversation/boundaries/boundary-step.ts";
import { receiptItems } from "../../conversation/turn/receipt.ts";
import type { ChatTurnParts } from "../pipeline.ts";
import type { Base } from "./foundation.ts";
import type { Stores } from "./stores.ts";
import type { Remembering } from "./memory.ts";
import type { Voice } from "./voice.ts";
import type { MemoryCare } from "./memory-care.ts";

/** The groups of services the chat turn is built from. */
interface TurnServices {
  base: Base;
  stores: Stores;
  remembering: Pick<Remembering, "memory" | "chatSearch" | "messageVectors" | "chatRecall">;
  models: ModelRegistry;
  /** The day and month budgets against the usage ledger. */
  budget: Budget;
  /** Who was told today that the budget is spent. */
  told: BudgetTold;
  voice: Voice;
  care: Pick<MemoryCare, "correctionLog" | "receipts" | "boundaryGuard">;
  questions: Questions;
  /** Web search, fetch_url and news for the lookup markers, and which chat models get native tool calls. */
  lookups: { lookups: Lookups; tools: ToolCalling };
  /** Runs the after-reply jobs recorded with each answer. */
  durable: DurableJobs;
  /** Reminders set in the chat ([REMIND:], set_reminder); without them the marker is unavailable. */
  reminders?: Pick<RemindersApi, "set">;
}

/** The turn's parts from the services; `extra` is `LiloPorts.steps`. */
export function chatTurnParts(t: TurnServices, extra: readonly TurnMiddleware[] = []): ChatTurnParts {
  const { config, clock, logger, db } = t.base;
  const { chatLog, inbox } = t.stores;
  const { persona } = t.voice;
  const language = persona.language;
  const sheet = turnSheet(t);
  return {
    steps: {
      storeMessage: storeMessageStep(t),
      budgetNotice: budgetNotice({ budget: t.budget, told: t.told }, { costs: config.costs, language }),
      extraction: extractionStep(t),
      messageVectors: messageVectorsAfterReply(messageVectorsTask(t.remembering.messageVectors)),
      markedWrong: markedWrong({ questions: t.questions, corrections: corrections(t), memory: t.remembering.memory, chatLog, persona, clock, logger }),
      pendingAnswer: pendingAnswer({ questions: t.questions, chatLog, clock, logger }, { answerWords: config.questions.answerWords, language }),
      correction: correctionStep(t),
      boundary: boundaryStep({ questions: t.questions, clock }, { language, questionTtlMinutes: config.questions.ttlMinutes }),
      diaryQuestion: diaryQuestion(t.remembering.memory.rows.diary, { diary: config.diary, timezone: config.timezone, language }),
      returnGreeting: returnGreeting({ persona, chatLog, history: t.stores.history }, { greeting: config.greeting, timezone: config.timezone }),
      dueTopic: dueTopic({ topics: t.stores.topics, persona, clock, logger, boundaries: t.care.boundaryGuard }, { topics: config.topics }),
      answer: answerStep(t, sheet),
    },
    extra,
    registerTasks: (tasks) => registerAfterReplyTasks({ durable: t.durable, chatLog }, tasks),
    receive: (msg) => receiveMessage({ config: { memory: config.memory }, clock, db, chatLog, inbox }, msg, chatLabel(t.models, logger)),
    finish: (messageId, answerStored) =>
      finishStored({ clock, db, chatLog, inbox, persona, answerStored }, { inbox: config.inbox, timezone: config.timezone }, messageId),
    retryable: (userId) => inbox.retryable(userId),
    preview: {
      sheet,
      chatLog,
      clock,
      language,
      config: { conversationPauseMinutes: config.memory.conversationPauseMinutes, budget: config.budget },
    },
  };
}

/** The first middleware: stores the message and summarises the conversation a new one ends. */
function storeMessageStep(t: Pick<TurnServices, "base" | "stores" | "models" | "voice">): TurnMiddleware {
  const { config, clock, logger, db } = t.base;
  const { chatLog, shortTerm, inbox } = t.stores;
  const { persona, markers } = t.voice;
  const summary = { persona, clock, logger, chatLog, models: t.models, shortTerm, markers };
  return storeMessage(
    {
      db,
      chatLog,
      inbox,
      clock,
      chatModel: () => chatLabel(t.models, logger),
      summarizePrevious: (userId, id) => summarizePrevious(summary, userId, id),
    },
    { memory: config.memory, budget: config.budget, language: persona.language },
  );
}

/** Facts extracted from the exchange after the reply (a durable job). */
function extractionStep(t: Pick<TurnServices, "base" | "stores" | "remembering" | "models" | "voice">): TurnMiddleware {
  const { config, clock, logger } = t.base;
  return extractAfterReply(
    extractionTask(
      { models: t.models, memory: t.remembering.memory, profile: t.stores.profile, problems: t.stores.problems, persona: t.voice.persona, clock, logger },
      { timezone: config.timezone, maxInputChars: config.budget.maxInputChars, maxTokens: config.modelCall.maxTokens },
    ),
  );
}

/** The correction service: candidates, the judge, verdicts and the logs. */
function corrections(t: Pick<TurnServices, "base" | "stores" | "remembering" | "models" | "care">): Corrections {
  const { config, logger } = t.base;
  const { profile, rules, problems } = t.stores;
  return new Corrections(
    { memory: t.remembering.memory, profile, rules, models: t.models, problems, log: t.care.correctionLog, logger },
    { corrections: config.corrections, maxTokens: config.modelCall.maxTokens },
  );
}

/** Corrections of what Lilo remembers, asked back as a yes/no where needed. */
function correctionStep(t: TurnServices): TurnMiddleware {
  const { config, clock, logger } = t.base;
  return correction(
    { corrections: corrections(t), questions: t.questions, persona: t.voice.persona, clock, logger },
    { questionTtlMinutes: config.questions.ttlMinutes, terminalUserId: config.terminal.userId },
  );
}

/** The cheat sheet, teaching the markers this setup answers (without the fetch markers when the model has native tools). */
function turnSheet(t: Pick<TurnServices, "base" | "stores" | "remembering" | "models" | "voice" | "care" | "lookups">): TurnSheet {
  const { config, logger } = t.base;
  const { persona, markers } = t.voice;
  const teach = { models: t.models, logger, lookups: t.lookups.lookups, tools: t.lookups.tools, markers };
  return createTurnSheet(
    {
      persona,
      memory: t.remembering.memory,
      profile: t.stores.profile,
      chatRecall: t.remembering.chatRecall,
      shortTerm: t.stores.shortTerm,
      rules: t.stores.rules,
      chatLog: t.stores.chatLog,
      markers,
      markerNames: () => chatMarkerNames(teach),
      boundaries: t.care.boundaryGuard,
    },
    { memory: config.memory, timezone: config.timezone },
  );
}

/** The last middleware: the model's answer with its markers and tools, stored with its after-reply jobs. */
function answerStep(t: TurnServices, sheet: TurnSheet): TurnMiddleware {
  const { config, clock, logger, db } = t.base;
  const { chatLog, inbox, jobs, rules } = t.stores;
  const replies = { clock, db, chatLog, inbox, jobs, durable: t.durable };
  const receipts = {
    record: (userId: string, answerId: number, blocks: Parameters<typeof receiptItems>[0]) =>
      t.care.receipts.record(
        userId,
        answerId,
        receiptItems(
          blocks,
          rules.list(userId, true).map((r) => r.id),
        ),
        clock.now().toISOString(),
      ),
  };
  return answerWithModel(
    { sheet, answering: answering(t), replies, persona: t.voice.persona, logger, receipts },
    { budget: config.budget, media: config.media, maxTokens: config.modelCall.maxTokens, streaming: () => config.modelCall.streaming },
  );
}

/** The chat model with what its markers and tools look things up with and save into. */
function answering(t: Pick<TurnServices, "base" | "stores" | "remembering" | "models" | "voice" | "care" | "lookups" | "reminders">): Answering {
  const { config, clock, logger } = t.base;
  const { memory } = t.remembering;
  const fetching: FetchDeps = {
    limits: { maxPassages: config.recall.maxPassages, diaryTopK: config.recall.diaryTopK, notesTopK: config.memory.notesTopK },
    timeZone: config.timezone,
    clock,
    logger,
    memory,
    recall: t.remembering.chatSearch,
    chatRecall: t.remembering.chatRecall,
    lookups: t.lookups.lookups,
    markers: t.voice.markers,
    ...(t.reminders ? { reminders: chatReminders(t.reminders, t.stores.chatLog) } : {}),
  };
  return createAnswering({
    models: t.models,
    fetching,
    tools: t.lookups.tools,
    storing: {
      memory,
      topics: t.stores.topics,
      suggestions: t.stores.suggestions,
      followupDueDays: config.topics.followupDueDays,
      boundaries: t.care.boundaryGuard,
    },
    persona: t.voice.persona,
    logger,
  });
}

/**
 * The chat model a conversation starts with, or null when none is usable: the
 * message is stored anyway, and the turn reports the missing model as its error.
 */
function chatLabel(models: ModelRegistry, logger: Logger): string | null {
  try {
    const spec = models.chatSpec();
    return `${spec.provider}:${spec.model}`;
  } catch (err) {
    logger.debug("no chat model to record for the conversation", { error: describeError(err) });
    return null;
  }
}

/** A reminder asked for in the chat rings in the chat the person's message came from, and remembers that message (for /why). */
function chatReminders(reminders: Pick<RemindersApi, "set">, chatLog: Stores["chatLog"]): NonNullable<FetchDeps["reminders"]> {
  return {
    fromChat(userId, conversationId, when, what) {
      const origin = chatLog.lastUserOrigin(conversationId);
      return reminders.set({
        userId,
        words: when,
        what,
        transport: origin?.transport ?? "terminal",
        chatId: origin?.chatId ?? userId,
        source: "tool",
        ...(origin ? { sourceMessageId: origin.id } : {}),
      });
    },
  };
}
