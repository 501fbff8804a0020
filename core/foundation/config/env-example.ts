import type { Group } from "./rules.ts";
import type { AnySection, GroupText } from "./section.ts";
import { configTable, defaultText, type Leaf } from "./table.ts";

/**
 * `.env.example`, generated from the configuration table (`npm run
 * config:example`); test/foundation/config/env-example.test.ts fails when the committed
 * file differs. The prose around the core's variables lives here, the
 * variables, defaults and descriptions in schema.ts; a section (an adapter's
 * variables, section.ts) brings its own groups, written after the core's.
 */

const HEADER = [
  "# Lilo configuration. Copy to .env and fill in what you use.",
  "# Secrets (API keys, tokens) live only here or in the environment: Lilo never stores or logs them.",
  "# Generated from core/foundation/config/schema.ts and adapters/*/config.ts by `npm run config:example`: change those, not this file.",
];

/** Each core group's heading and the notes before (and after) its variables, in file order. */
const GROUPS: Record<Group, GroupText> = {
  "model-keys": { title: "Model: set ONE of these (the first one found becomes the chat model)" },
  models: {
    title: 'Which model does what: "provider:model" (provider = anthropic, openai, deepseek, openrouter, ollama)',
    intro: ["Each other role follows the chat model in force (also after /model or lilo model) unless set here."],
  },
  persona: { title: "Persona" },
  data: { title: "Data" },
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

const WIDTH = 130;
const DOC_COLUMN = 40;

/** The whole `.env.example` text: the core's groups, then those of each section (in the order given). */
export function renderEnvExample(sections: readonly AnySection[] = []): string {
  const out = [...HEADER];
  const { leaves } = configTable(sections);
  const groups = [GROUPS, ...sections.map((s) => s.groups)].flatMap((g) => Object.entries(g));
  for (const [group, text] of groups) {
    out.push("", heading(text.title), ...comments(text.intro ?? []));
    for (const leaf of leaves.filter((l) => l.group === group)) out.push(...variable(leaf));
    out.push(...comments(text.outro ?? []));
  }
  return `${out.join("\n")}\n`;
}

function heading(title: string): string {
  const line = `# ── ${title} `;
  return line.padEnd(Math.max(78, line.length + 2), "─");
}

const comments = (lines: string[]) => lines.map((l) => `# ${l}`);

/** `# VAR=default   (description)`, the description above when the line would be too long. */
function variable(leaf: Leaf): string[] {
  const line = `# ${leaf.env}=${leaf.example ?? defaultText(leaf)}`;
  const doc = [leaf.doc, leaf.live ? `live: lilo settings set ${leaf.live}` : ""].filter(Boolean).join("; ");
  if (!doc) return [line];
  const inline = `${line.padEnd(DOC_COLUMN)} (${doc})`;
  return inline.length <= WIDTH ? [inline] : [...comments(wrap(doc, 100)), line];
}

/** Splits text into lines of at most `width` characters at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) lines.push(current);
  return lines;
}
