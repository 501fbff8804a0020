/**
 * The correction service: what the correction middleware asks of memory, the
 * judge model and the logs, behind one name. The middleware
 * (correction-step.ts) decides when; this service knows where candidates come
 * from, which model judges, where changes and model problems are written.
 */
import { tagCalls } from "../../foundation/usage/call-tags.ts";
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Memory } from "../../memory/memory.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { RulesStore } from "../../foundation/store/rules.ts";
import type { ModelProblems } from "../../foundation/store/model-problems.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { CorrectionPeople, JudgeCandidate } from "../prompts/correction.ts";
import { findCandidates, type Candidate } from "./candidates.ts";
import { judgeCandidates, type JudgeOutcome, type Verdict } from "./judge.ts";
import { applyVerdicts, type ApplyContext, type ApplyResult } from "./apply-verdicts.ts";
import { deriveRule, type RuleOutcome } from "./rule-derivation.ts";
import type { CorrectionEntry, CorrectionLog } from "./correction-log.ts";

/** Where corrections read and write. */
interface CorrectionSources {
  memory: Memory;
  profile: ProfileStore;
  rules: RulesStore;
  /** The judge model is this registry's "judge" role. */
  models: ModelRegistry;
  /** Unusable or repaired judge and rule answers are recorded here. */
  problems: ModelProblems;
  log: CorrectionLog;
  logger: Logger;
}

/** Its configuration slice. */
interface CorrectionsConfig {
  corrections: LiloConfig["corrections"];
  /** Output budget of the judge and rule calls. */
  maxTokens: number;
}

/** Candidates, judge, verdicts, rules and the logs of the correction check. */
export class Corrections {
  constructor(
    private readonly s: CorrectionSources,
    private readonly config: CorrectionsConfig,
  ) {}

  /** What was logged for this trigger message already (a retry after a failed chat call). */
  earlier(userId: string, messageId: number): CorrectionEntry[] {
    return this.s.log.forTrigger(userId, messageId);
  }

  /** Notes and profile entries near the message and the previous answer. */
  candidates(userId: string, message: string, previousAnswer: string | undefined): Promise<Candidate[]> {
    const { candidatesPerText: k, candidateMinScore: minScore } = this.config.corrections;
    return findCandidates(this.s.memory, this.s.profile, { userId, message, previousAnswer, k, minScore });
  }

  /** The judge model's verdicts on the candidates. */
  judge(
    input: CorrectionPeople & { message: string; previousAnswer: string | undefined; candidates: JudgeCandidate[]; userId?: string; markedWrong?: boolean },
  ): Promise<JudgeOutcome> {
    return judgeCandidates(tagCalls(this.s.models.forRole("judge"), { purpose: "judge", userId: input.userId }), input, this.config.maxTokens);
  }

  /** Carries out the verdicts (notes superseded and logged, profile entries offered). */
  apply(candidates: Candidate[], verdicts: Verdict[], ctx: ApplyContext): Promise<ApplyResult> {
    return applyVerdicts({ memory: this.s.memory, log: this.s.log, logger: this.s.logger }, candidates, verdicts, ctx);
  }

  /** A behaviour rule derived from the contradiction, or none. */
  deriveRule(input: CorrectionPeople & { message: string; previousAnswer: string; userId?: string }): Promise<RuleOutcome> {
    return deriveRule(tagCalls(this.s.models.forRole("judge"), { purpose: "judge", userId: input.userId }), input, this.config.maxTokens);
  }

  /** Whether the user has this rule already (compared without case). */
  knowsRule(userId: string, rule: string): boolean {
    return this.s.rules.list(userId).some((r) => r.text.trim().toLowerCase() === rule.toLowerCase());
  }

  /** Records a judge or rule answer that was unusable ("dropped") or cut out of surrounding text ("repaired"). */
  problem(userId: string, role: "judge" | "rule", outcome: "dropped" | "repaired", detail: string, at: string): void {
    this.s.problems.record(userId, role, outcome, detail, at);
  }
}
