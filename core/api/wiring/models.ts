/**
 * The models of one Lilo: every model — configured, switched to at run time,
 * or passed in — goes through the usage ledger, and every built one records
 * its contacts. `local:` models share one engine, so one model is in memory.
 */
import type { ModelRole } from "../../foundation/config/config.ts";
import type { ChatModel } from "../../foundation/ports/chat-model.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import { Contacts } from "../../foundation/health/contacts.ts";
import { recordingContact } from "../../foundation/health/contact-model.ts";
import { ModelRegistry, type ModelLister } from "../../foundation/models/registry.ts";
import { formatModelSpec } from "../../foundation/config/model-spec.ts";
import { listModels } from "../../foundation/providers/model-list.ts";
import { createChatModel } from "../../foundation/providers/model-factory.ts";
import { LocalModels } from "../../foundation/providers/local/local-models.ts";
import type { LiloPorts } from "../lilo-ports.ts";
import type { Base } from "./foundation.ts";
import { usageLedger, budgetFallbackModel, type UsageParts } from "./usage.ts";
import { CallGate } from "../../foundation/models/call-gate.ts";
import { meteredModel } from "../../foundation/models/metered-model.ts";
import { NO_METRICS } from "../../foundation/ports/metrics.ts";

/** The model registry, the contacts it records, and the usage ledger every call goes through. */
export interface Modelling {
  models: ModelRegistry;
  contacts: Contacts;
  usage: UsageParts;
  /** Ends every model call when Lilo stops past its grace time. */
  gate: CallGate;
  /** Closes the engine of `local:` models. */
  close(): Promise<void>;
}

/** Builds the models from the configuration, the stored chat model switch and the ports. */
export function wireModels(
  base: Base,
  settings: SettingsStore,
  ports: Pick<LiloPorts, "models" | "chatModel" | "modelFactory" | "modelLister" | "localModels" | "metrics">,
): Modelling {
  const { config, db, clock, logger } = base;
  const usage = usageLedger(config, db, clock, logger, settings);
  // Outermost, so a call refused or ended on stop is neither recorded nor retried.
  const gate = new CallGate();
  const metrics = ports.metrics ?? NO_METRICS;
  // Counted innermost: a call a spent budget refuses never reached the model.
  const wrap = (model: ChatModel) => gate.wrap(usage.wrap(meteredModel(model, metrics)));
  const overrides: Partial<Record<ModelRole, ChatModel>> = {};
  for (const [role, model] of Object.entries({ ...ports.models, ...(ports.chatModel ? { chat: ports.chatModel } : {}) }))
    overrides[role as ModelRole] = wrap(model);
  // Declared before the registry it asks, which is built below with the contacts it records to.
  let inUse: (model: string) => boolean = () => true;
  const contacts = new Contacts(settings, clock, (model) => inUse(model));
  // One engine for every role that uses Lilo's own model: one model in memory.
  const localModels = ports.localModels ?? new LocalModels(config.local, config.modelCall.maxTokens, logger);
  const makeModel = ports.modelFactory ?? ((spec) => createChatModel(spec, config, localModels));
  const lister: ModelLister | undefined =
    ports.modelLister ?? (ports.modelFactory ? undefined : (provider) => listModels(provider, config.providers[provider]!, config.modelCall.timeoutMs));
  const models: ModelRegistry = new ModelRegistry(
    config,
    (spec) => wrap(recordingContact(makeModel(spec), contacts)),
    settings,
    overrides,
    () => budgetFallbackModel(usage.budget, models, logger),
    lister,
  );
  inUse = (model) => modelsInUse(config, models, usage.budget.fallbackModel()).has(model);
  return { models, contacts, usage, gate, close: () => localModels.close() };
}

/** "provider:model" of every model a role may call now: the chat model in force, each role's own, the budget's fallback. */
function modelsInUse(config: Base["config"], models: ModelRegistry, fallback: string | undefined): Set<string> {
  const specs = new Set<string>();
  try {
    specs.add(formatModelSpec(models.chatSpec()));
  } catch {
    // No chat model configured: no model is in use as the chat's.
  }
  // The configured chat model is in use only while no run-time switch replaces it: chatSpec() says which.
  for (const [role, spec] of Object.entries(config.models)) if (spec && role !== "chat") specs.add(formatModelSpec(spec));
  if (fallback) specs.add(fallback);
  return specs;
}
