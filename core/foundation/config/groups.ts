import type { Group } from "./rules.ts";
import type { AnySection, GroupText } from "./section.ts";
import { configTable, defaultText } from "./table.ts";

/**
 * The configuration table as its readers see it: headed groups of variables,
 * the core's first, then each section's. `.env.example` (env-example.ts) and
 * the configuration page of the docs are both written from this one list, so
 * the two cannot tell different stories. The prose around the core's
 * variables lives here, the variables, defaults and descriptions in schema.ts.
 */

/** Each core group's heading and the notes before (and after) its variables, in file order. */
const CORE_GROUPS: Record<Group, GroupText> = {
  "model-keys": { title: "Model: set ONE of these (the first one found becomes the chat model)" },
  models: {
    title: 'Which model does what: "provider:model" (provider = anthropic, openai, deepseek, openrouter, ollama)',
    intro: ["Each other role follows the chat model in force (also after /model or lilo model) unless set here."],
  },
  persona: { title: "Persona" },
  data: { title: "Data" },
  service: {
    title: "Running as a service: stop, health check, metrics (docs/operations.md)",
    intro: ["The health and metrics server is off unless LILO_HEALTH_PORT is set; it listens on loopback unless LILO_HEALTH_HOST says otherwise."],
  },
  embeddings: { title: "Embeddings and vector index" },
  "local-model": {
    title: "Lilo's own model: LILO_CHAT_MODEL=local:qwen2.5-1.5b (or llama3.2-3b, qwen2.5-7b, or local:/path/to/model.gguf)",
    intro: ["Runs inside Lilo, no key and no server: downloaded once into the folder below (resumable, checksum-verified)."],
  },
  memory: { title: "Memory (the seed's numbers)" },
  budgets: { title: "Budgets: what goes to the chat model (one huge message never breaks later turns)" },
  costs: {
    title: "Costs: the usage ledger, prices and budgets (`lilo usage`, /usage)",
    intro: ["At 100 % of a budget the diary, reflection, greetings and concern checks stop until the next day or month; the chat goes on."],
  },
  recall: { title: "Recall: fetch markers in chat (one follow-up call answers all of them)" },
  corrections: { title: "Corrections (a model judges; the score only finds candidates)" },
  live: {
    title: "Live settings",
    intro: [
      'Variables marked "live" below are defaults: `lilo settings set diary.time 21:30` changes them while',
      "Lilo runs (`lilo settings unset KEY` goes back to the value here).",
    ],
  },
  diary: { title: "Diary (nightly, in LILO_TIMEZONE; model: LILO_DIARY_MODEL)" },
  reflection: { title: "Reflection and concerns (model: LILO_REFLECTION_MODEL)" },
  greeting: {
    title: "Greetings (model: the chat model)",
    intro: [
      "After a pause (LILO_CONVERSATION_PAUSE_MINUTES) the first message always gets the greeting context.",
      "The pushed greeting is off by default: a daily message nobody asked for, one model call per user",
      "and day, and an opt-in for concern and diary pings is not yet a wish for a daily good-morning.",
    ],
  },
  analysis: {
    title: "Outside view — analysis (`lilo analysis`; model: LILO_ANALYSIS_MODEL or --model provider:model)",
    intro: [
      "Gemini: through OpenRouter (LILO_ANALYSIS_MODEL=openrouter:google/gemini-2.5-pro) or Google's OpenAI-compatible",
      "endpoint (OPENAI_BASE_URL=https://generativelanguage.googleapis.com/v1beta/openai/, OPENAI_API_KEY=<Gemini key>",
      'and LILO_ANALYSIS_MODEL=openai:gemini-2.5-pro; that makes "openai" mean Gemini).',
    ],
    outro: ["Long parts take minutes: raise LILO_MODEL_TIMEOUT_MS for analysis runs (it applies to every model call)."],
  },
  lookup: {
    title: "Looking things up: web search, reading pages, news, native tools",
    intro: ["Web search needs one provider; without one Lilo is not told about [SEARCH:]."],
  },
  media: { title: "Photos and voice notes" },
  terminal: { title: "Terminal chat (used when no chat adapter is configured)" },
};

/** One variable as a reader sees it: no zod rule, only what is written about it. */
export interface ConfigVariable {
  /** The environment variable, e.g. "LILO_DIARY_TIME". */
  env: string;
  /** The rule's default as text ("" when there is none). */
  default: string;
  /** What it does (may be empty). */
  doc: string;
  /** Shown in `.env.example` instead of the default, e.g. `sk-ant-...`. */
  example?: string;
  /** Only whether it is set is ever printed. */
  secret: boolean;
  /** The key of `lilo settings set` when it can change while Lilo runs. */
  live?: string;
}

/** One group: its heading and notes, and its variables in table order. */
interface ConfigGroup extends GroupText {
  /** The group's key in the table, e.g. "diary" or "telegram". */
  key: string;
  variables: ConfigVariable[];
}

/** Every group of the table with `sections` on top, in file order: the core's, then those of each section (in the order given). */
export function configGroups(sections: readonly AnySection[] = []): ConfigGroup[] {
  const { leaves } = configTable(sections);
  const texts = [CORE_GROUPS, ...sections.map((s) => s.groups)].flatMap((g) => Object.entries(g));
  return texts.map(([key, text]) => ({
    key,
    ...text,
    variables: leaves
      .filter((l) => l.group === key)
      .map((l) => ({
        env: l.env,
        default: defaultText(l),
        doc: l.doc,
        secret: l.secret === true,
        ...(l.example !== undefined ? { example: l.example } : {}),
        ...(l.live !== undefined ? { live: l.live } : {}),
      })),
  }));
}
