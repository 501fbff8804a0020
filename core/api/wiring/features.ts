/**
 * The background features' wiring: the diary, the reflection (with its
 * concerns), the pushed greeting, the analysis, and the bookkeeping of a
 * delivered push, each built from the groups of services with exactly the
 * dependencies it declares, around one shared feature context.
 */
import { diaryApi, type DiaryApi } from "../diary-api.ts";
import { reflectionApi, type ReflectionApi } from "../reflection-api.ts";
import { greetingApi, type GreetingApi } from "../greeting-api.ts";
import { analysisApi, type AnalysisApi } from "../analysis-api.ts";
import { concerns } from "../../background/reflection/concerns.ts";
import { featureContext } from "../../background/feature-context.ts";
import { deliveredBookkeeping } from "../../background/push/delivered.ts";
import type { DeliveredHandler, Push } from "../../background/push/push.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Memory } from "../../memory/memory.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import type { News } from "../../lookups/news.ts";
import type { Base } from "./foundation.ts";
import type { Stores } from "./stores.ts";
import type { Voice } from "./voice.ts";
import { HistoryExtraction } from "../../background/history/history-extraction.ts";

/** The groups of services the background features are built from. */
interface FeatureServices {
  base: Base;
  stores: Stores;
  memory: Memory;
  models: ModelRegistry;
  voice: Voice;
  push: Push;
  /** The news feeds, reflection's material when configured. */
  news: News;
  /** The topics never brought up, which every speaking feature checks. */
  boundaries: BoundaryGuard;
}

/** The background features of one Lilo. */
export interface BackgroundFeatures {
  diary: DiaryApi;
  reflection: ReflectionApi;
  greeting: GreetingApi;
  analysis: AnalysisApi;
  /** Memory from imported chat histories, in the background. */
  historyExtraction: HistoryExtraction;
  /** Stores a delivered push as Lilo's message (for `push.setDeliveredHandler`). */
  delivered: DeliveredHandler;
}

/** The background features from the services. */
export function backgroundFeatures(f: FeatureServices): BackgroundFeatures {
  const { config, clock, logger, db } = f.base;
  const { chatLog, history, profile, shortTerm, topics, settings } = f.stores;
  const { memory, models, push, boundaries } = f;
  const { persona, markers } = f.voice;
  const feature = featureContext(config, { clock, logger, profile });
  const concernsOf = concerns({ topics, settings, push, models }, config.reflection, feature);
  const news = config.lookup.reflectionNews.enabled ? { feed: f.news, items: config.lookup.reflectionNews.items } : undefined;
  return {
    diary: diaryApi({ memory, history, models, push, markers, boundaries }, config.diary, persona, feature),
    reflection: reflectionApi(
      { memory, history, models, settings, concerns: concernsOf, news, thoughtsMinScore: config.memory.thoughtsMinScore, markers, boundaries },
      config.reflection,
      persona,
      feature,
    ),
    greeting: greetingApi({ chatLog, history, models, push, topics, topicsConfig: config.topics, markers, boundaries }, config.greeting, persona, feature),
    historyExtraction: new HistoryExtraction({
      imports: f.stores.historyImports,
      jobs: f.stores.jobs,
      models,
      memory,
      profile,
      topics,
      boundaries,
      problems: f.stores.problems,
      persona,
      clock,
      logger,
      maxInputChars: config.budget.maxInputChars,
      maxTokens: config.modelCall.maxTokens,
      followups: { recentDays: config.topics.importRecentDays, followupDueDays: config.topics.followupDueDays, timeZone: config.timezone },
    }),
    analysis: analysisApi(
      { db, models, settings, analyses: f.stores.analyses, userNames: config.persona.userNames, markers },
      config.analysis,
      persona,
      feature,
    ),
    delivered: deliveredBookkeeping({
      persona,
      conversationPauseMinutes: config.memory.conversationPauseMinutes,
      clock,
      logger,
      db,
      models,
      chatLog,
      shortTerm,
      topics,
      reminders: f.stores.reminders,
      markers,
    }),
  };
}
