/**
 * The background features' wiring: the diary, the reflection (with its
 * concerns), the pushed greeting, the analysis, and the bookkeeping of a
 * delivered push, each built from the services with exactly the
 * dependencies it declares, around one shared feature context.
 */
import { diaryApi, type DiaryApi } from "../diary-api.ts";
import { reflectionApi, type ReflectionApi } from "../reflection-api.ts";
import { greetingApi, type GreetingApi } from "../greeting-api.ts";
import { analysisApi, type AnalysisApi } from "../analysis-api.ts";
import { concerns } from "../../background/reflection/concerns.ts";
import { featureContext } from "../../background/feature-context.ts";
import { deliveredBookkeeping } from "../../background/push/delivered.ts";
import type { DeliveredHandler } from "../../background/push/push.ts";
import type { Services } from "./services.ts";

/** The background features of one Lilo. */
export interface BackgroundFeatures {
  diary: DiaryApi;
  reflection: ReflectionApi;
  greeting: GreetingApi;
  analysis: AnalysisApi;
  /** Stores a delivered push as Lilo's message (for `push.setDeliveredHandler`). */
  delivered: DeliveredHandler;
}

/** The background features from the services. */
export function backgroundFeatures(s: Services): BackgroundFeatures {
  const { config, persona } = s;
  const feature = featureContext(config, { clock: s.clock, logger: s.logger, profile: s.profile });
  const concernsOf = concerns({ topics: s.topics, settings: s.settings, push: s.push, models: s.models }, config.reflection, feature);
  const news = config.lookup.reflectionNews.enabled ? { feed: s.news, items: config.lookup.reflectionNews.items } : undefined;
  return {
    diary: diaryApi(
      { memory: s.memory, history: s.history, models: s.models, push: s.push, markers: s.markers, boundaries: s.boundaryGuard },
      config.diary,
      persona,
      feature,
    ),
    reflection: reflectionApi(
      {
        memory: s.memory,
        history: s.history,
        models: s.models,
        settings: s.settings,
        concerns: concernsOf,
        news,
        thoughtsMinScore: config.memory.thoughtsMinScore,
        markers: s.markers,
        boundaries: s.boundaryGuard,
      },
      config.reflection,
      persona,
      feature,
    ),
    greeting: greetingApi(
      {
        chatLog: s.chatLog,
        history: s.history,
        models: s.models,
        push: s.push,
        topics: s.topics,
        topicsConfig: config.topics,
        markers: s.markers,
        boundaries: s.boundaryGuard,
      },
      config.greeting,
      persona,
      feature,
    ),
    analysis: analysisApi(
      { db: s.db, models: s.models, settings: s.settings, userNames: config.persona.userNames, markers: s.markers },
      config.analysis,
      persona,
      feature,
    ),
    delivered: deliveredBookkeeping({
      persona,
      conversationPauseMinutes: config.memory.conversationPauseMinutes,
      clock: s.clock,
      logger: s.logger,
      db: s.db,
      models: s.models,
      chatLog: s.chatLog,
      shortTerm: s.shortTerm,
      topics: s.topics,
      markers: s.markers,
    }),
  };
}
