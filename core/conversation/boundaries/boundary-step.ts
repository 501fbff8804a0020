/**
 * The boundary request in a chat turn: "Sprich meine Arbeit nicht mehr an"
 * is asked back as a yes/no (like a learned rule) and becomes a boundary
 * only after the yes. The turn goes on to the model's answer either way.
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import type { BoundariesStore } from "../../foundation/store/boundaries.ts";
import type { PendingQuestion, QuestionHandler, Answer, Questions } from "../questions/questions.ts";
import type { TurnMiddleware } from "../turn/types.ts";
import { BOUNDARY_TEXTS } from "../prompts/boundaries.ts";
import { boundaryRequest } from "./detect.ts";

const BOUNDARY_QUESTION = "boundary";

/** Payload of a boundary question. */
interface BoundaryQuestionPayload {
  topic: string;
  sourceMessageId?: number;
}

/** Asks the boundary question when the user's message asks for one (and no other question is asked in this turn). */
export function boundaryStep(deps: { questions: Questions; clock: Clock }, config: { language: "de" | "en"; questionTtlMinutes: number }): TurnMiddleware {
  return {
    name: "boundary",
    async run(ctx, next) {
      const topic = ctx.question || ctx.flags.answeredQuestion ? undefined : boundaryRequest(ctx.text);
      if (topic) {
        const payload: BoundaryQuestionPayload = { topic, sourceMessageId: ctx.userMessage.id };
        ctx.question = deps.questions.ask(
          ctx.userId,
          BOUNDARY_QUESTION,
          payload,
          BOUNDARY_TEXTS[config.language].ask(topic),
          config.questionTtlMinutes * 60_000,
        );
      }
      await next();
    },
  };
}

/** A yes stores the boundary; boundaries never arise without it. */
export function boundaryQuestionHandler(boundaries: BoundariesStore, language: "de" | "en"): QuestionHandler {
  return {
    kind: BOUNDARY_QUESTION,
    onAnswer(q: PendingQuestion, answer: Answer, now: Date): string {
      const p = q.payload as BoundaryQuestionPayload;
      if (answer === "no") return BOUNDARY_TEXTS[language].dropped;
      boundaries.add(q.userId, p.topic, now.toISOString(), p.sourceMessageId);
      return BOUNDARY_TEXTS[language].saved(p.topic);
    },
  };
}
