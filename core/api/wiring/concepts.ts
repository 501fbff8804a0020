/**
 * The chat-log search's concept step (core/memory/recall/concept-matches.ts)
 * as configured: its lexicon (the bundled WordNet, a WordNet-format folder,
 * a given one, or none when `LILO_CONCEPT_LEXICON=off`), loaded in the
 * background from the start so start-up does not wait for it.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Lexicon } from "../../foundation/ports/lexicon.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import { describeError } from "../../foundation/errors.ts";
import { WordNetLexicon } from "../../foundation/providers/lexicon/wordnet-lexicon.ts";
import { DEFAULT_CONCEPT_STEP, type ConceptStep } from "../../memory/recall/concept-matches.ts";

/** The step for the chat-log search (undefined when off) and a wait for its lexicon that never fails (a failure is logged once; the search runs without the step). */
export interface ConceptWiring {
  step: ConceptStep | undefined;
  ready: () => Promise<void>;
}

/** Builds the concept step and starts loading its lexicon. */
export function wireConcepts(
  config: LiloConfig,
  logger: Logger,
  given: Lexicon | undefined,
  tuning: Partial<Omit<ConceptStep, "lexicon">> | undefined,
): ConceptWiring {
  const choice = config.memory.conceptLexicon;
  const lexicon = given ?? (choice === "off" ? undefined : new WordNetLexicon(choice === "wordnet" ? undefined : choice));
  if (!lexicon) return { step: undefined, ready: () => Promise.resolve() };
  const loaded = lexicon.load().catch((error: unknown) => {
    logger.warn("concept lexicon not loaded; the chat-log search runs without its concept step", { lexicon: lexicon.id, error: describeError(error) });
  });
  return { step: { ...DEFAULT_CONCEPT_STEP, ...tuning, lexicon }, ready: () => loaded };
}
