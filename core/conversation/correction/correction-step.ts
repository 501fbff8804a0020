import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Questions } from "../questions/questions.ts";
import type { TurnContext, TurnMiddleware } from "../turn/types.ts";
import type { Persona } from "../persona/persona.ts";
import type { CorrectionPeople } from "../prompts/correction.ts";
import { correctionHint, profileHint, ruleAskedHint } from "../prompts/correction.ts";
import { RULE_QUESTION, ruleQuestionText, type RuleQuestionPayload } from "../questions/rule-question.ts";
import { describeError } from "../../foundation/errors.ts";
import { correctionTrigger } from "./prefilter.ts";
import type { Corrections } from "./corrections.ts";
import { problemKind } from "../../foundation/util/model-json.ts";

/** The collaborators of the correction check. */
interface CorrectionServices {
  /** Candidates, judge, verdicts, rules and the logs. */
  corrections: Corrections;
  /** The rule question waits here for the user's yes. */
  questions: Questions;
  persona: Persona;
  clock: Clock;
  logger: Logger;
}

/** Its configuration slice (the judge's lives with the Corrections service). */
interface CorrectionConfig {
  /** How long the rule question stays open. */
  questionTtlMinutes: number;
  /** The terminal's user needs no `--user` in the profile command Lilo mentions. */
  terminalUserId: string;
}

type Deps = CorrectionServices & { config: CorrectionConfig };

/**
 * The correction check before the model call (docs/spec.md §6, §7): prefilter →
 * candidates near the message and the previous answer → the judge → notes
 * superseded or rewritten (logged, undoable) → hints on the cheat sheet.
 * When the user contradicted Lilo and no note was corrected, one more call
 * may derive a behaviour rule, which the user must confirm with a yes.
 * Per message either a note correction or a rule, never both.
 *
 * A failing judge or rule call never breaks the turn: it is logged and the
 * message is answered as usual.
 */
export function correction(services: CorrectionServices, config: CorrectionConfig): TurnMiddleware {
  const deps: Deps = { ...services, config };
  return {
    name: "correction",
    async run(ctx, next) {
      await check(deps, ctx);
      await next();
    },
  };
}

async function check(deps: Deps, ctx: TurnContext): Promise<void> {
  const trigger = correctionTrigger(ctx.text);
  if (!trigger) return;
  deps.logger.debug("correction prefilter hit", { userId: ctx.userId, pattern: trigger });
  try {
    // A retry of a message whose notes were corrected already (the chat call failed after it): tell again, judge nothing twice.
    const earlier = deps.corrections.earlier(ctx.userId, ctx.userMessage.id);
    if (earlier.length) {
      const who = people(deps, ctx.userId);
      const live = earlier.filter((e) => !e.undoneAt).map((e) => ({ action: e.action, oldText: e.oldText, newText: e.newText ?? undefined }));
      if (live.length) ctx.sheet.corrections.push(correctionHint(who.language, who.userName, live));
      return;
    }
    const corrected = await correctNotes(deps, ctx);
    if (corrected === "no-change") await proposeRule(deps, ctx);
  } catch (err) {
    deps.logger.warn("correction check failed; answering without it", { userId: ctx.userId, error: describeError(err) });
  }
}

function people(deps: Deps, userId: string): CorrectionPeople {
  const { persona } = deps;
  return { userName: persona.userName(userId), assistantName: persona.name, language: persona.language };
}

/**
 * Judges the candidates and applies the verdicts. Returns "corrected" when a
 * note changed or a profile entry was offered for removal, "no-change" when
 * everything was kept (a rule may follow), "failed" when the judge's answer
 * was unusable (nothing changes, no rule either: we do not know what was meant).
 */
async function correctNotes(deps: Deps, ctx: TurnContext): Promise<"corrected" | "no-change" | "failed"> {
  const { config, corrections } = deps;
  const candidates = await corrections.candidates(ctx.userId, ctx.text, ctx.previousAnswer?.text);
  if (candidates.length === 0) return "no-change";
  const who = people(deps, ctx.userId);
  const now = deps.clock.now().toISOString();
  const judged = await corrections.judge({
    ...who,
    userId: ctx.userId,
    message: ctx.text,
    previousAnswer: ctx.previousAnswer?.text,
    candidates: candidates.map((c) => ({ id: c.key, text: c.text, date: c.createdAt.slice(0, 10), source: c.source })),
  });
  if (!judged.ok) {
    corrections.problem(ctx.userId, "judge", "dropped", judged.problem, now);
    deps.logger.warn("judge answer unusable; nothing corrected", { userId: ctx.userId, problem: problemKind(judged.problem) });
    return "failed";
  }
  if (judged.repaired) corrections.problem(ctx.userId, "judge", "repaired", "JSON cut out of surrounding text", now);
  if (judged.unknownIds.length) deps.logger.warn("judge named candidates it was not shown; ignored", { userId: ctx.userId, ids: judged.unknownIds });

  const applied = await corrections.apply(candidates, judged.verdicts, {
    userId: ctx.userId,
    triggerMessageId: ctx.userMessage.id,
    triggerText: ctx.text,
    profileDeleteCommand: (id) => `lilo profile delete ${id}${ctx.userId === config.terminalUserId ? "" : ` --user ${ctx.userId}`}`,
  });
  if (applied.changes.length) {
    ctx.sheet.corrections.push(correctionHint(who.language, who.userName, applied.changes));
    deps.logger.info("notes corrected", { userId: ctx.userId, corrections: applied.logIds });
  }
  if (applied.offers.length) ctx.sheet.corrections.push(profileHint(who.language, who.userName, applied.offers));
  return applied.changes.length || applied.offers.length ? "corrected" : "no-change";
}

/** Derives a rule from the contradiction and asks the user; nothing is stored without their yes. */
async function proposeRule(deps: Deps, ctx: TurnContext): Promise<void> {
  // Without an answer of Lilo's there is no behaviour to correct; one question per turn,
  // and none right after the message answered the previous one.
  if (!ctx.previousAnswer || ctx.question || ctx.flags.answeredQuestion) return;
  const who = people(deps, ctx.userId);
  const out = await deps.corrections.deriveRule({ ...who, userId: ctx.userId, message: ctx.text, previousAnswer: ctx.previousAnswer.text });
  const now = deps.clock.now().toISOString();
  if (!out.ok) {
    deps.corrections.problem(ctx.userId, "rule", "dropped", out.problem, now);
    deps.logger.warn("rule answer unusable; no rule proposed", { userId: ctx.userId, problem: problemKind(out.problem) });
    return;
  }
  if (out.repaired) deps.corrections.problem(ctx.userId, "rule", "repaired", "JSON cut out of surrounding text", now);
  const rule = out.rule;
  if (!rule) return;
  if (deps.corrections.knowsRule(ctx.userId, rule)) return;
  const payload: RuleQuestionPayload = { rule, sourceMessageId: ctx.userMessage.id };
  ctx.question = deps.questions.ask(ctx.userId, RULE_QUESTION, payload, ruleQuestionText(who.language, rule), deps.config.questionTtlMinutes * 60_000);
  ctx.sheet.corrections.push(ruleAskedHint(who.language, who.userName, rule));
}
