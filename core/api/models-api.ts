import type { ModelRole } from "../foundation/config/config.ts";
import type { ModelSpec } from "../foundation/config/model-spec.ts";
import type { ChatModel } from "../foundation/ports/chat-model.ts";

/** The chat model in use and run-time switches (`lilo model`, `/model`). */
export interface ModelsApi {
  /** The chat model's spec now in force (a run-time switch wins over configuration). */
  chatSpec(): ModelSpec;
  /**
   * Switches the chat model from now on ("provider:model", or a model name for the current provider);
   * `now` is the ISO time stored with the switch. Throws ModelSwitchError when the value is unusable.
   */
  switchChat(value: string, now: string): ModelSpec;
  /** Does the chat model in force get a message's images (LILO_VISION)? Adapters skip downloading photos it would not see. */
  acceptsImages(): boolean;
  /** Goes back to the configured chat model. */
  resetChat(): void;
  /** The model that plays `role` (chat, judge, summary, …), falling back to the chat model. */
  forRole(role: ModelRole): ChatModel;
}
