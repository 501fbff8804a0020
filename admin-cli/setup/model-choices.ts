/**
 * The setup's model step: a list of choices, each one entry. A provider
 * with a key, a local OpenAI-compatible server, and — when a catalogue of
 * downloadable models exists — Lilo's own local model.
 */
import { describeError, ProviderError } from "../../core/index.ts";
import { listModels, OPENAI_COMPATIBLE_VENDORS, type LocalModelEntry, type ProviderSettings } from "../../core/internal.ts";
import type { Asker } from "./ask.ts";
import type { CurrentAnswers } from "./current.ts";
import type { SetupTexts } from "./texts.ts";

/** Lines for `.env`, variable → value. */
export type EnvLines = Record<string, string>;

/** What a choice may use to ask and check. */
export interface ChoiceContext {
  asker: Asker;
  t: SetupTexts;
  /** The language the questions are in: a provider's refusal is said in it too. */
  language: "de" | "en";
  /** Checks a value against its variable's zod rule (the configuration's table). */
  check(variable: string, value: string): string | undefined;
  /** What `.env` already says: a re-run suggests the model in use. */
  current: CurrentAnswers;
}

/** One answer to "which model?": its label and the questions that fill its variables. */
export interface ModelChoice {
  name: string;
  label(t: SetupTexts): string;
  ask(ctx: ChoiceContext): Promise<EnvLines>;
}

/**
 * A model Lilo can download and run itself (the local provider's catalogue).
 * Only what the setup shows and writes.
 */
export interface LocalModelOffer {
  name: string;
  /** e.g. "2.0 GB" */
  size: string;
  licence: string;
  /** The catalogue entry: file name, pinned URL and sha256 of the download the setup runs. */
  entry: LocalModelEntry;
}

/** The vendors reached with a key, their variables and default model. */
const KEYED = {
  anthropic: { keyVar: "ANTHROPIC_API_KEY", urlVar: "ANTHROPIC_BASE_URL", label: "Anthropic (Claude)", model: "claude-sonnet-4-5", kind: "anthropic" },
  openai: { ...OPENAI_COMPATIBLE_VENDORS.openai, label: "OpenAI", model: "gpt-4o-mini", kind: "openai-compatible" },
  deepseek: { ...OPENAI_COMPATIBLE_VENDORS.deepseek, label: "DeepSeek", model: "deepseek-chat", kind: "openai-compatible" },
} as const;
export type KeyedVendor = keyof typeof KEYED;

/** How to reach a provider from the setup's answers (the same defaults as the configuration). */
export function settingsFor(provider: string, apiKey: string | undefined, baseUrl: string | undefined): ProviderSettings {
  if (provider === "anthropic") return { kind: "anthropic", apiKey, baseUrl, defaultModel: KEYED.anthropic.model };
  const vendor = OPENAI_COMPATIBLE_VENDORS[provider as keyof typeof OPENAI_COMPATIBLE_VENDORS];
  return { kind: "openai-compatible", apiKey, baseUrl: baseUrl ?? vendor?.defaultUrl, defaultModel: vendor?.defaultModel };
}

/** The problem with `model` when the provider lists its models and this one is not among them. */
export function notOffered(t: SetupTexts, model: string, offered: readonly string[] | undefined): string | undefined {
  if (!offered || offered.includes(model)) return undefined;
  return t.notOffered(model, offered.slice(0, 5).join(", ") || "-");
}

function keyed(vendor: KeyedVendor): ModelChoice {
  const v = KEYED[vendor];
  return {
    name: vendor,
    label: () => v.label,
    async ask({ asker, t, language, check, current }) {
      let offered: string[] | undefined;
      const key = await asker.ask({
        text: vendor === "anthropic" ? t.anthropicKey : vendor === "openai" ? t.openaiKey : t.deepseekKey,
        secret: true,
        check: async (k) => {
          const bad = check(v.keyVar, k);
          if (bad) return bad;
          asker.say(t.checking);
          try {
            offered = await listModels(vendor, settingsFor(vendor, k, process.env[v.urlVar]));
            return undefined;
          } catch (err) {
            return describeError(err, language);
          }
        },
      });
      if (!offered) asker.say(t.noList);
      const model = await asker.ask({
        text: t.modelName,
        default: modelOf(current.chatModel, vendor) ?? v.model,
        check: (m) => check("LILO_CHAT_MODEL", `${vendor}:${m}`) ?? notOffered(t, m, offered),
      });
      return { [v.keyVar]: key, LILO_CHAT_MODEL: `${vendor}:${model}` };
    },
  };
}

/** A local OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM): its URL, then a model from its `/models`. */
const localServer: ModelChoice = {
  name: "server",
  label: (t) => t.serverChoice,
  async ask({ asker, t, language, check, current }) {
    let offered: string[] | undefined;
    let key = "";
    const url = await asker.ask({
      text: t.serverUrl,
      default: current.serverUrl ?? "http://127.0.0.1:11434/v1",
      check: async (u) => {
        const bad = check("OPENAI_BASE_URL", u);
        if (bad) return bad;
        try {
          offered = await listModels("openai", settingsFor("openai", undefined, u));
          return undefined;
        } catch (err) {
          if (!(err instanceof ProviderError)) return describeError(err, language);
          // Nothing answered: the address and the system's reason, not the vendor the client happens to be named after.
          if (err.status === undefined) return t.serverUnreachable(u, unreachableReason(err, language));
          // A server that wants a key (401/403) gets one asked for; any other refusal is said as it is.
          if (err.status !== 401 && err.status !== 403) return describeError(err, language);
          key = await asker.ask({ text: t.keyOptional, secret: true, check: (k) => check("OPENAI_API_KEY", k) });
          offered = await listModels("openai", settingsFor("openai", key, u)).catch(() => undefined);
          return undefined;
        }
      },
    });
    let model: string;
    if (offered && offered.length > 0) {
      const was = modelOf(current.chatModel, "openai");
      const i = await asker.choose(
        t.pickModel(offered.length),
        offered.map((m) => ({ name: m, label: m })),
        Math.max(0, was === undefined ? 0 : offered.indexOf(was)),
      );
      model = offered[i]!;
    } else {
      asker.say(t.noList);
      model = await asker.ask({
        text: t.modelName,
        default: modelOf(current.chatModel, "openai") ?? "",
        check: (m) => check("LILO_CHAT_MODEL", `openai:${m}`),
      });
    }
    return { OPENAI_BASE_URL: url, ...(key ? { OPENAI_API_KEY: key } : {}), LILO_CHAT_MODEL: `openai:${model}` };
  },
};

/** Why a server did not answer, from the system's error under the client's (refused, unknown host, timeout). */
function unreachableReason(err: ProviderError, language: "de" | "en"): string {
  const fetchFailure = err.cause as { cause?: unknown } | undefined;
  return describeError(fetchFailure?.cause ?? fetchFailure ?? err, language);
}

/** The model part of `provider:model` when `spec` is of that provider. */
function modelOf(spec: string | undefined, provider: string): string | undefined {
  return spec?.startsWith(`${provider}:`) ? spec.slice(provider.length + 1) : undefined;
}

/** Lilo's own model: one of the catalogue's, written as `local:<name>` (the setup downloads it before the first chat). */
function ownModel(catalogue: readonly LocalModelOffer[]): ModelChoice {
  return {
    name: "local",
    label: (t) => t.localModel,
    async ask({ asker, t, current }) {
      const was = current.chatModel === "local" ? catalogue[0]?.name : modelOf(current.chatModel, "local");
      const i = await asker.choose(
        t.localModel,
        catalogue.map((m) => ({ name: m.name, label: `${m.name} (${m.size}, ${m.licence})` })),
        Math.max(
          0,
          catalogue.findIndex((m) => m.name === was),
        ),
      );
      return { LILO_CHAT_MODEL: `local:${catalogue[i]!.name}` };
    },
  };
}

/** The choices in the order shown; Lilo's own model only when there is a catalogue to pick from. */
export function modelChoices(catalogue: readonly LocalModelOffer[]): ModelChoice[] {
  return [keyed("anthropic"), keyed("openai"), keyed("deepseek"), localServer, ...(catalogue.length ? [ownModel(catalogue)] : [])];
}

/** The choice a re-run suggests: the one that wrote the chat model in use (an own server is an openai model with an address). */
export function currentChoice(choices: readonly ModelChoice[], current: CurrentAnswers): number {
  const provider = current.chatModel?.split(":")[0];
  const name = provider === "openai" && current.serverUrl ? "server" : provider;
  return Math.max(
    0,
    choices.findIndex((c) => c.name === name),
  );
}
