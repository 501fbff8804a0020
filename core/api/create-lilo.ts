/**
 * The composition root: builds every service once, in groups of one concern
 * each (core/api/wiring/), and hands each middleware, feature and use case
 * only the groups it works on. Nothing is loaded until used (the embedder
 * loads on the first memory access), so creating Lilo is cheap.
 */
import type { LiloConfig } from "../foundation/config/config.ts";
import { createTranscriber } from "../foundation/providers/openai-transcriber.ts";
import { DurableJobs } from "../foundation/util/durable-jobs.ts";
import { createLookups } from "../lookups/create-lookups.ts";
import type { Lilo } from "./lilo-api.ts";
import type { LiloPorts } from "./lilo-ports.ts";
import { createChatTurn } from "./pipeline.ts";
import { liveSettings, openFoundation } from "./wiring/foundation.ts";
import { openStores } from "./wiring/stores.ts";
import { wireMemory } from "./wiring/memory.ts";
import { wireModels } from "./wiring/models.ts";
import { wirePush } from "./wiring/push.ts";
import { wireMemoryCare } from "./wiring/memory-care.ts";
import { wireQuestions } from "./wiring/questions.ts";
import { voiceOf } from "./wiring/voice.ts";
import { chatTurnParts } from "./wiring/turn.ts";
import { backgroundFeatures } from "./wiring/features.ts";
import { assembleLilo } from "./wiring/lilo.ts";
import { wireHealth } from "./wiring/health.ts";
import { NO_METRICS } from "../foundation/ports/metrics.ts";
import { wireReminders } from "./wiring/reminders.ts";
import { wireSpeech } from "./wiring/speech.ts";

export type { LiloPorts } from "./lilo-ports.ts";

/** A Lilo on `sharedConfig` (not changed: live settings write into a copy), with any port replaced by `ports`. */
export function createLilo(sharedConfig: LiloConfig, ports: LiloPorts = {}): Lilo {
  const foundation = openFoundation(sharedConfig, ports);
  const { config, clock, logger, background } = foundation;
  const stores = openStores(foundation.db);
  const remembering = wireMemory(foundation, ports, stores);
  const modelling = wireModels(foundation, stores.settings, ports);
  const live = liveSettings(foundation, stores.settings);
  const pushing = wirePush(foundation, stores, modelling.usage, background);
  const care = wireMemoryCare(foundation, stores, remembering);
  const questions = wireQuestions(foundation, stores.rules, care);
  const looks = createLookups(config.lookup, foundation.db, clock, logger, ports.webSearch);
  const durable = new DurableJobs(stores.jobs, background, clock, logger, config.inbox.jobMaxAttempts);
  const voice = voiceOf(config, ports.markers);
  const models = modelling.models;
  const reminding = wireReminders(foundation, stores, pushing.push);
  const turn = createChatTurn(
    chatTurnParts(
      {
        base: foundation,
        stores,
        remembering,
        models,
        budget: modelling.usage.budget,
        told: modelling.usage.told,
        voice,
        care,
        questions,
        lookups: looks,
        durable,
        reminders: reminding.api,
      },
      ports.steps,
    ),
  );
  const features = backgroundFeatures({
    base: foundation,
    stores,
    memory: remembering.memory,
    models,
    voice,
    push: pushing.push,
    news: looks.news,
    boundaries: care.boundaryGuard,
  });
  pushing.push.setDeliveredHandler(features.delivered);
  const metrics = ports.metrics ?? NO_METRICS;
  pushing.push.onSent((adapter) => metrics.pushSent({ adapter }));
  return assembleLilo({
    foundation,
    live,
    stores,
    remembering,
    modelling,
    pushing,
    care,
    questions,
    durable,
    lookups: looks,
    turn,
    features,
    reminders: reminding.api,
    transcriber: ports.transcriber ?? createTranscriber(config.media),
    speech: wireSpeech(foundation, stores, modelling.usage, voice.markers, ports),
    health: wireHealth(foundation.db, clock, stores, metrics, (message, options) => turn.handle(message, options)),
    close: async () => {
      await reminding.scheduler.stop();
      await pushing.push.stopDelivery();
      await background.idle();
      await remembering.close();
      await modelling.close();
      await foundation.close();
    },
  });
}
