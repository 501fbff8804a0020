/**
 * The chat turn's wiring: each middleware, and the services inside the turn
 * (sheet, answering, corrections, replies), built from the services with
 * exactly the dependencies it declares. core/api/pipeline.ts orders them.
 */
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { TurnMiddleware } from "../../conversation/turn/types.ts";
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
import type { ChatTurnParts } from "../pipeline.ts";
import type { Services } from "./services.ts";
import { boundaryStep } from "../../conversation/boundaries/boundary-step.ts";
import { receiptItems } from "../../conversation/turn/receipt.ts";

/** The turn's parts from the services; `extra` is `LiloPorts.steps`. */
export function chatTurnParts(s: Services, extra: readonly TurnMiddleware[] = []): ChatTurnParts {
  const { config } = s;
  const language = s.persona.language;
  const sheet = turnSheet(s);
  return {
    steps: {
      storeMessage: storeMessageStep(s),
      budgetNotice: budgetNotice({ budget: s.budget, settings: s.settings, clock: s.clock }, { costs: config.costs, language }),
      extraction: extractionStep(s),
      messageVectors: messageVectorsAfterReply(messageVectorsTask(s.messageVectors)),
      markedWrong: markedWrong({
        questions: s.questions,
        corrections: corrections(s),
        memory: s.memory,
        chatLog: s.chatLog,
        persona: s.persona,
        clock: s.clock,
        logger: s.logger,
      }),
      pendingAnswer: pendingAnswer(
        { questions: s.questions, chatLog: s.chatLog, clock: s.clock, logger: s.logger },
        { answerWords: config.questions.answerWords, language },
      ),
      correction: correctionStep(s),
      boundary: boundaryStep({ questions: s.questions, clock: s.clock }, { language, questionTtlMinutes: config.questions.ttlMinutes }),
      diaryQuestion: diaryQuestion(s.memory.rows.diary, { diary: config.diary, timezone: config.timezone, language }),
      returnGreeting: returnGreeting({ persona: s.persona, chatLog: s.chatLog, history: s.history }, { greeting: config.greeting, timezone: config.timezone }),
      dueTopic: dueTopic({ topics: s.topics, persona: s.persona, clock: s.clock, logger: s.logger, boundaries: s.boundaryGuard }, { topics: config.topics }),
      answer: answerStep(s, sheet),
    },
    extra,
    registerTasks: (tasks) => registerAfterReplyTasks({ durable: s.durable, chatLog: s.chatLog }, tasks),
    receive: (msg) => receiveMessage({ config: { memory: config.memory }, clock: s.clock, db: s.db, chatLog: s.chatLog, inbox: s.inbox }, msg, chatLabel(s)),
    finish: (messageId, answerStored) =>
      finishStored(
        { clock: s.clock, db: s.db, chatLog: s.chatLog, inbox: s.inbox, persona: s.persona, answerStored },
        { inbox: config.inbox, timezone: config.timezone },
        messageId,
      ),
    retryable: (userId) => s.inbox.retryable(userId),
    preview: {
      sheet,
      chatLog: s.chatLog,
      clock: s.clock,
      language,
      config: { conversationPauseMinutes: config.memory.conversationPauseMinutes, budget: config.budget },
    },
  };
}

/** The first middleware: stores the message and summarises the conversation a new one ends. */
function storeMessageStep(s: Services): TurnMiddleware {
  const summary = { persona: s.persona, clock: s.clock, logger: s.logger, chatLog: s.chatLog, models: s.models, shortTerm: s.shortTerm, markers: s.markers };
  return storeMessage(
    {
      db: s.db,
      chatLog: s.chatLog,
      inbox: s.inbox,
      clock: s.clock,
      chatModel: () => chatLabel(s),
      summarizePrevious: (userId, id) => summarizePrevious(summary, userId, id),
    },
    { memory: s.config.memory, budget: s.config.budget, language: s.persona.language },
  );
}

/** Facts extracted from the exchange after the reply (a durable job). */
function extractionStep(s: Services): TurnMiddleware {
  const { config } = s;
  return extractAfterReply(
    extractionTask(
      { models: s.models, memory: s.memory, profile: s.profile, problems: s.problems, persona: s.persona, clock: s.clock, logger: s.logger },
      { timezone: config.timezone, maxInputChars: config.budget.maxInputChars, maxTokens: config.modelCall.maxTokens },
    ),
  );
}

/** The correction service: candidates, the judge, verdicts and the logs. */
function corrections(s: Services): Corrections {
  return new Corrections(
    { memory: s.memory, profile: s.profile, rules: s.rules, models: s.models, problems: s.problems, log: s.correctionLog, logger: s.logger },
    { corrections: s.config.corrections, maxTokens: s.config.modelCall.maxTokens },
  );
}

/** Corrections of what Lilo remembers, asked back as a yes/no where needed. */
function correctionStep(s: Services): TurnMiddleware {
  const { config } = s;
  return correction(
    { corrections: corrections(s), questions: s.questions, persona: s.persona, clock: s.clock, logger: s.logger },
    { questionTtlMinutes: config.questions.ttlMinutes, terminalUserId: config.terminal.userId },
  );
}

/** The cheat sheet, teaching the markers this setup answers (without the fetch markers when the model has native tools). */
function turnSheet(s: Services): TurnSheet {
  const teach = { models: s.models, logger: s.logger, lookups: s.lookups, tools: s.tools, markers: s.markers };
  return createTurnSheet(
    {
      persona: s.persona,
      memory: s.memory,
      profile: s.profile,
      chatRecall: s.chatRecall,
      shortTerm: s.shortTerm,
      rules: s.rules,
      chatLog: s.chatLog,
      markers: s.markers,
      markerNames: () => chatMarkerNames(teach),
      boundaries: s.boundaryGuard,
    },
    { memory: s.config.memory, timezone: s.config.timezone },
  );
}

/** The last middleware: the model's answer with its markers and tools, stored with its after-reply jobs. */
function answerStep(s: Services, sheet: TurnSheet): TurnMiddleware {
  const replies = { clock: s.clock, db: s.db, chatLog: s.chatLog, inbox: s.inbox, jobs: s.jobs, durable: s.durable };
  const receipts = {
    record: (userId: string, answerId: number, blocks: Parameters<typeof receiptItems>[0]) =>
      s.receipts.record(
        userId,
        answerId,
        receiptItems(
          blocks,
          s.rules.list(userId, true).map((r) => r.id),
        ),
        s.clock.now().toISOString(),
      ),
  };
  return answerWithModel(
    { sheet, answering: answering(s), replies, persona: s.persona, logger: s.logger, receipts },
    { budget: s.config.budget, media: s.config.media, maxTokens: s.config.modelCall.maxTokens },
  );
}

/** The chat model with what its markers and tools look things up with and save into. */
function answering(s: Services): Answering {
  const { config } = s;
  const fetching: FetchDeps = {
    limits: { maxPassages: config.recall.maxPassages, diaryTopK: config.recall.diaryTopK, notesTopK: config.memory.notesTopK },
    timeZone: config.timezone,
    clock: s.clock,
    logger: s.logger,
    memory: s.memory,
    recall: s.chatSearch,
    chatRecall: s.chatRecall,
    lookups: s.lookups,
    markers: s.markers,
  };
  return createAnswering({
    models: s.models,
    fetching,
    tools: s.tools,
    storing: { memory: s.memory, topics: s.topics, suggestions: s.suggestions, followupDueDays: config.topics.followupDueDays, boundaries: s.boundaryGuard },
    persona: s.persona,
    logger: s.logger,
  });
}

/**
 * The chat model a conversation starts with, or null when none is usable: the
 * message is stored anyway, and the turn reports the missing model as its error.
 */
function chatLabel(s: { models: ModelRegistry; logger: Logger }): string | null {
  try {
    const spec = s.models.chatSpec();
    return `${spec.provider}:${spec.model}`;
  } catch (err) {
    s.logger.debug("no chat model to record for the conversation", { error: describeError(err) });
    return null;
  }
}
