import type { ChatModel } from "../ports/chat-model.ts";
import type { LiloConfig, ModelRole, ModelSpec } from "../config/config.ts";
import { requireModel } from "../config/config.ts";
import { ConfigError, ModelSwitchError } from "../errors.ts";
import { said } from "../error-texts.ts";
import type { SettingsStore } from "../store/settings.ts";
import { formatModelSpec } from "../config/model-spec.ts";
import { resolveModelSpec, withBareProvider } from "../config/providers.ts";

const CHAT_SETTING = "chat_model";

/** The model ids a provider offers, or undefined when it lists none (config/../providers/model-list.ts). */
export type ModelLister = (provider: string) => Promise<string[] | undefined>;

/** Makes a ChatModel for a spec; the composition root passes the provider factory in. */
export type ModelFactory = (spec: ModelSpec) => ChatModel;

/**
 * Which model answers for which role. The chat model can be switched at run
 * time (kept in settings, so it survives a restart); memory is untouched by
 * a switch because every model shares the same stores.
 */
export class ModelRegistry {
  private readonly cache = new Map<string, ChatModel>();

  constructor(
    private readonly config: LiloConfig,
    private readonly factory: ModelFactory,
    private readonly settings: SettingsStore,
    private readonly overrides: Partial<Record<ModelRole, ChatModel>> = {},
    /** The cheaper model every role switches to while a spent budget's cap holds (LILO_BUDGET_FALLBACK_MODEL), else undefined. */
    private readonly budgetFallback: () => ChatModel | undefined = () => undefined,
    /** The models a provider offers (`GET /models`), undefined when it lists none; without it nothing is checked. */
    private readonly lister?: ModelLister,
  ) {}

  /** Each provider's list, asked once per process. */
  private readonly offered = new Map<string, Promise<string[] | undefined>>();

  /**
   * The model for a role. A role without its own setting (LILO_DIARY_MODEL, …)
   * follows the chat model in force, so a run-time switch moves extraction,
   * judge, summary, diary and reflection too, never leaving memory writing on
   * a dead provider. While a spent budget's cap holds and a fallback model
   * is configured, every role uses that model: the cap refuses any other.
   */
  forRole(role: ModelRole): ChatModel {
    const fallback = this.budgetFallback();
    if (fallback) return fallback;
    const override = this.overrides[role] ?? (role !== "chat" && !this.config.models[role] ? this.overrides.chat : undefined);
    if (override) return override;
    if (role === "chat") return this.get(this.chatSpec());
    return this.get(this.config.models[role] ?? this.chatSpec());
  }

  /** The chat model's spec now in force (a run-time switch wins over configuration). */
  chatSpec(): ModelSpec {
    const saved = this.settings.get(CHAT_SETTING);
    if (saved) {
      const { provider, name } = withBareProvider(saved);
      return { provider, model: name };
    }
    if (this.overrides.chat) return { provider: this.overrides.chat.provider, model: this.overrides.chat.model };
    return requireModel(this.config, "chat");
  }

  /**
   * Switches the chat model for everyone, by the one rule for model names
   * (config/providers.ts `resolveModelSpec`; a bare name is a model of the
   * provider in force) and only to a model the provider offers when it lists
   * them. Throws ModelSwitchError; nothing changes then.
   */
  async switchChat(value: string, now: string): Promise<ModelSpec> {
    const choices = Object.keys(this.config.providers);
    const spec = resolveModelSpec(value, this.config.providers, this.chatSpec().provider);
    try {
      this.get(spec); // fails now, with a clear error, if the provider is not usable
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      throw new ModelSwitchError(said("providerUnusable", spec.provider), "provider-unusable", spec.provider, choices, { cause: err });
    }
    await this.checkOffered(spec);
    this.settings.set(CHAT_SETTING, formatModelSpec(spec), now);
    return spec;
  }

  /**
   * Refuses (ModelSwitchError "unknown-model") a model its provider does not
   * list in `GET /models`; a provider without a list, or one that cannot be
   * asked now, is taken at its word (the first call will say more).
   */
  async checkOffered(spec: ModelSpec): Promise<void> {
    if (!this.lister || (this.overrides.chat && spec.provider === this.overrides.chat.provider)) return;
    let offered = this.offered.get(spec.provider);
    if (!offered) {
      offered = this.lister(spec.provider).catch(() => undefined);
      this.offered.set(spec.provider, offered);
    }
    const list = await offered;
    if (!list || list.includes(spec.model)) return;
    const some = list.slice(0, 8).join(", ");
    throw new ModelSwitchError(
      said("modelNotOffered", spec.provider, spec.model, `${some}${list.length > 8 ? ", …" : ""}`),
      "unknown-model",
      spec.provider,
      list,
    );
  }

  /**
   * The model for an explicit "provider:model" (e.g. the analyst named on the
   * command line), built by the same factory; nothing is stored.
   */
  forSpec(value: string): ChatModel {
    const { provider, name: model } = withBareProvider(value);
    if (!this.config.providers[provider]) {
      throw new ConfigError(said("unknownProvider", provider, Object.keys(this.config.providers).join(", ")));
    }
    if (!model) throw new ConfigError(said("modelNotNamed", provider));
    return this.get({ provider, model });
  }

  /** Goes back to the configured chat model. */
  resetChat(): void {
    this.settings.delete(CHAT_SETTING);
  }

  private get(spec: ModelSpec): ChatModel {
    if (this.overrides.chat && spec.provider === this.overrides.chat.provider && spec.model === this.overrides.chat.model) return this.overrides.chat;
    const key = formatModelSpec(spec);
    let m = this.cache.get(key);
    if (!m) {
      m = this.factory(spec);
      this.cache.set(key, m);
    }
    return m;
  }
}
