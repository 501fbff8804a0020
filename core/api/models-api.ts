import type { LiloConfig, ModelRole } from "../foundation/config/config.ts";
import type { ModelSpec } from "../foundation/config/model-spec.ts";
import type { ChatModel } from "../foundation/ports/chat-model.ts";
import { acceptsImages } from "../foundation/config/media.ts";
import type { ModelRegistry } from "../foundation/models/registry.ts";

/** The chat model in use and run-time switches (`lilo model`, `/model`). */
export interface ModelsApi {
  /** The chat model's spec now in force (a run-time switch wins over configuration). */
  chatSpec(): ModelSpec;
  /**
   * Switches the chat model from now on ("provider:model", a provider's name for its default model,
   * or a model name for the current provider); `now` is the ISO time stored with the switch.
   * Rejects with ModelSwitchError when the value is unusable or the provider's `/models` list lacks it.
   */
  switchChat(value: string, now: string): Promise<ModelSpec>;
  /** Rejects with ModelSwitchError when the chat model in force is not on its provider's `/models` list (checked at start). */
  checkChat(): Promise<void>;
  /** Does the chat model in force get a message's images (LILO_VISION)? Adapters skip downloading photos it would not see. */
  acceptsImages(): boolean;
  /** Goes back to the configured chat model. */
  resetChat(): void;
  /** The model that plays `role` (chat, judge, summary, …), falling back to the chat model. */
  forRole(role: ModelRole): ChatModel;
}

/** The models API over the registry; which models see images is read from `config` when asked. */
export function modelsApi(models: ModelRegistry, config: Pick<LiloConfig, "media">): ModelsApi {
  return {
    chatSpec: () => models.chatSpec(),
    switchChat: (value, now) => models.switchChat(value, now),
    checkChat: () => models.checkOffered(models.chatSpec()),
    acceptsImages: () => acceptsImages(config.media, models.chatSpec()),
    resetChat: () => models.resetChat(),
    forRole: (role) => models.forRole(role),
  };
}
