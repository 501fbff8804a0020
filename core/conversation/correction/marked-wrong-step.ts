import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ChatLog } from "../../foundation/store/chat-log.ts";
import type { Memory } from "../../memory/memory.ts";
import type { Persona } from "../persona/persona.ts";
import type { Answer, PendingQuestion, Questions } from "../questions/questions.ts";
import type { TurnContext, TurnMiddleware } from "../turn/types.ts";
import type { Corrections } from "./corrections.ts";
import type { Candidate } from "./candidates.ts";
import type { Verdict } from "./judge.ts";
import { markedItem, WRONG_QUESTION, WRONG_TEXTS } from "../questions/wrong-question.ts";
import { markedWrongKeptHint } from "../prompts/marked-wrong.ts";
import { answerTurnWith } from "./pending-answer-step.ts";
import { words } from "./yes-no.ts";
import { problemKind } from "../../foundation/util/model-json.ts";

/** The collaborators of the "what is wrong?" reply. */
interface MarkedWrongServices {
  questions: Questions;
  corrections: Corrections;
  memory: Memory;
  chatLog: ChatLog;
  persona: Persona;
  clock: Clock;
  logger: Logger;
}

/** Typed choices: the labels, their synonyms and ja/nein; filler words do not count. */
const DELETE_WORDS = new Set(["löschen", "lösch", "loeschen", "weg", "delete", "remove", "ja", "yes", "👍"]);
const KEEP_WORDS = new Set(["stimmt", "doch", "richtig", "right", "nein", "no", "abbrechen", "cancel", "lass", "lassen", "keep", "👎"]);
const FILLER = new Set(["it", "s", "is", "das", "es", "damit", "bitte", "please", "einfach", "so"]);

/**
 * After "stimmt nicht" on /why Lilo asked what is wrong about one
 * memory. This step, before the other open-question check, reads the
 * user's next message: "Löschen" / "Stimmt doch" (or ja/nein) answer the
 * question; anything else is what is wrong, and goes with the memory to the
 * judge — the same model role as every correction — which rewrites it
 * (superseded, the corrected text added) or removes it (superseded), both in
 * the correction log and undoable. The turn is answered with what changed. A
 * reply the judge finds to be about something else keeps the memory and goes
 * on as a normal message, with a hint so Lilo says so. A failing judge
 * cannot lose the user's verdict: the memory is superseded as wrong.
 */
export function markedWrong(deps: MarkedWrongServices): TurnMiddleware {
  return {
    name: "marked-wrong",
    async run(ctx, next) {
      if (await readReply(deps, ctx)) return;
      await next();
    },
  };
}

/** Typed "Löschen" / "Stimmt doch"; undefined for anything longer or mixed. */
export function typedChoice(text: string): Answer | undefined {
  const all = words(text);
  const w = all.filter((x) => !FILLER.has(x));
  if (!w.length || all.length > 4) return undefined;
  if (w.every((x) => DELETE_WORDS.has(x))) return "yes";
  if (w.every((x) => KEEP_WORDS.has(x))) return "no";
  return undefined;
}

async function readReply(deps: MarkedWrongServices, ctx: TurnContext): Promise<boolean> {
  const q = deps.questions.pending(ctx.userId);
  if (!q || q.kind !== WRONG_QUESTION) return false;
  const choice = typedChoice(ctx.text);
  if (choice) {
    const outcome = await deps.questions.answer(ctx.userId, q.id, choice);
    if (!outcome.ok) return false;
    ctx.flags.answeredQuestion = true;
    answerTurnWith(deps, ctx, outcome.text);
    return true;
  }
  const item = markedItem(deps.memory, q);
  // Corrected or forgotten in between, or a button was faster: a normal message.
  if (!item || !deps.questions.settle(q, "yes")) return false;
  ctx.flags.answeredQuestion = true;
  const text = await judged(deps, ctx, q, { key: `m${item.id}`, source: "note", store: item.store, id: item.id, text: item.text, createdAt: item.createdAt });
  if (text === undefined) {
    ctx.sheet.questionOutcome = markedWrongKeptHint(deps.persona.language, deps.persona.userName(ctx.userId), item.text);
    return false;
  }
  answerTurnWith(deps, ctx, text);
  return true;
}

/** The judge's verdict carried out; undefined when it kept the memory. */
async function judged(deps: MarkedWrongServices, ctx: TurnContext, q: PendingQuestion, c: Omit<Candidate, "score" | "near">): Promise<string | undefined> {
  const { persona, corrections } = deps;
  const t = WRONG_TEXTS[persona.language];
  const now = deps.clock.now().toISOString();
  const outcome = await corrections.judge({
    userName: persona.userName(ctx.userId),
    assistantName: persona.name,
    language: persona.language,
    userId: ctx.userId,
    message: ctx.text,
    previousAnswer: undefined,
    candidates: [{ id: c.key, text: c.text, date: c.createdAt.slice(0, 10), source: "note" }],
    markedWrong: true,
  });
  let verdict: Verdict | undefined;
  if (outcome.ok) {
    if (outcome.repaired) corrections.problem(ctx.userId, "judge", "repaired", "JSON cut out of surrounding text", now);
    verdict = outcome.verdicts.find((v) => v.id === c.key);
    if (verdict?.action === "keep" || (verdict?.action === "rewrite" && verdict.text?.trim() === c.text.trim())) return undefined;
  } else {
    corrections.problem(ctx.userId, "judge", "dropped", outcome.problem, now);
    deps.logger.warn("judge answer unusable; the memory marked wrong is superseded", {
      userId: ctx.userId,
      questionId: q.id,
      problem: problemKind(outcome.problem),
    });
  }
  // The user said it is wrong: without a usable verdict it goes (undoable), it does not stay.
  const v: Verdict = verdict ?? { id: c.key, action: "delete", reason: "the user marked it wrong (/why: stimmt nicht)" };
  const applied = await corrections.apply([{ ...c, score: 1, near: ["message"] }], [v], {
    userId: ctx.userId,
    triggerMessageId: ctx.userMessage.id,
    triggerText: ctx.text,
    profileDeleteCommand: () => "",
  });
  const logId = applied.logIds[0];
  if (logId === undefined) {
    // applyVerdicts logged why; the memory is as it was, and the user is told so.
    deps.logger.warn("memory marked wrong was not changed", { userId: ctx.userId, questionId: q.id, action: v.action });
    return t.failed;
  }
  return v.action === "rewrite" ? t.rewritten(c.text, v.text!, logId) : t.deleted(c.text, logId);
}
