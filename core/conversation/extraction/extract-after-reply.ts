import { tagCalls } from "../../foundation/usage/call-tags.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { ModelProblems } from "../../foundation/store/model-problems.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { Persona } from "../persona/persona.ts";
import type { AfterReplyTask, TurnMiddleware } from "../turn/types.ts";
import type { Memory } from "../../memory/memory.ts";
import { shortenText } from "../turn/request-budget.ts";
import { formatLocal } from "../../foundation/util/time.ts";
import { problemKind } from "../../foundation/util/model-json.ts";
import { extractMemories } from "./extract.ts";
import { rememberExtraction } from "./remember.ts";

/** What the extraction after a reply uses. */
interface ExtractionServices {
  models: ModelRegistry;
  memory: Memory;
  profile: ProfileStore;
  /** Unusable and repaired model answers are counted here. */
  problems: ModelProblems;
  persona: Persona;
  clock: Clock;
  logger: Logger;
}

/** The configuration the extraction reads. */
interface ExtractionConfig {
  timezone: string;
  /** Texts are read shortened to this, as in the turn. */
  maxInputChars: number;
  maxTokens: number;
}

/**
 * The one extraction call after the reply (docs/spec.md §4.1), as a durable
 * after-reply job; a malformed answer is counted, never fatal.
 */
export function extractionTask(s: ExtractionServices, config: ExtractionConfig): AfterReplyTask<ExtractionState | null> {
  return {
    kind: "extraction",
    async run({ user, answer }, state) {
      const language = s.persona.language;
      const now = s.clock.now().toISOString();
      const out = await extractMemories(
        tagCalls(s.models.forRole("extraction"), { purpose: "extraction", userId: user.userId }),
        {
          userName: s.persona.userName(user.userId),
          named: s.persona.isNamed(user.userId),
          assistantName: s.persona.name,
          language,
          // Huge texts are read shortened, as in the turn: the extraction call must fit the model too.
          userText: shortenText(user.text, config.maxInputChars, language),
          assistantText: shortenText(answer.text, config.maxInputChars, language),
          date: formatLocal(new Date(user.createdAt), config.timezone, language),
          knownUserTexts: s.profile.list(user.userId).map((p) => p.text),
          ...(state?.outside?.length ? { outside: state.outside } : {}),
        },
        config.maxTokens,
      );
      if (!out.ok) {
        s.problems.record(user.userId, "extraction", "dropped", out.problem, now);
        s.logger.warn("extraction answer unusable after one retry", { userId: user.userId, problem: problemKind(out.problem) });
        return;
      }
      if (out.retried) s.problems.record(user.userId, "extraction", "retried", "first answer unusable", now);
      else if (out.repaired) s.problems.record(user.userId, "extraction", "repaired", "JSON cut out of surrounding text", now);
      if (out.invalidItems.length) {
        // A bad value costs only its item, like a store writer would refuse it; it is still a model problem to count.
        s.problems.record(user.userId, "extraction", "dropped", `items with values no store accepts: ${out.invalidItems.join(" | ")}`, now);
        s.logger.warn("extraction items with invalid values were dropped", { userId: user.userId, count: out.invalidItems.length });
      }
      // Counts and sizes only: the facts themselves are memory text, which no log line holds.
      if (out.droppedFacts.length)
        s.logger.info("facts not taken from the user's words were dropped", {
          userId: user.userId,
          count: out.droppedFacts.length,
          chars: out.droppedFacts.reduce((n, f) => n + f.length, 0),
        });
      await rememberExtraction(s, out.extraction, { userId: user.userId, sourceMessageId: answer.id, userMessageId: user.id, now });
    },
  };
}

/** The extraction job's state: the outside text the answer was written with. */
interface ExtractionState {
  outside?: string[];
}

/** Registers the extraction for after the reply; it is stored only when a model answer is. */
export function extractAfterReply(task: AfterReplyTask<ExtractionState | null>): TurnMiddleware {
  return {
    name: "extraction",
    tasks: [task],
    async run(ctx, next) {
      // A getter: the state is written when the answer is recorded, after the answer step has set what it looked up.
      const state: ExtractionState = {
        get outside() {
          return ctx.flags.outside?.length ? ctx.flags.outside : undefined;
        },
      };
      ctx.waitUntil(task, state);
      await next();
    },
  };
}
