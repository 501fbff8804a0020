/**
 * The fetch markers as native tools (SPEC §5): JSON schemas come from the
 * zod schemas that also validate the model's arguments. Each tool maps to
 * the marker whose path it takes, so both give the same text.
 */
import { z } from "zod";
import type { ToolSpec } from "../../foundation/ports/chat-model.ts";
import type { MarkerName } from "../markers/marker.ts";
import { MARKERS } from "../markers/registry.ts";

const query = (description: string) => z.object({ query: z.string().trim().min(1).describe(description) }).strict();

/** Every tool: its arguments, the marker it stands for, and when the model should use it. */
export const TOOLS = {
  memory_search: {
    marker: undefined,
    args: query("what to look for, in a few words"),
    description: "Search your notes and important memories about the user by meaning.",
  },
  recall: {
    marker: "RECALL",
    args: query("literal words that were probably said back then, plus time words such as 'yesterday' or 'last week'"),
    description: "Search the chat log of earlier conversations word by word; time words narrow the time range. Use it when the user asks about something you discussed and you lack the details.",
  },
  diary_search: {
    marker: "DIARY",
    args: query("what the diary entry was about"),
    description: "Find entries of your own diary by meaning.",
  },
  web_search: {
    marker: "SEARCH",
    args: query("the web search query"),
    description: "Search the web for current information. Use the results in your own words; do not paste lists of links.",
  },
  fetch_url: {
    marker: "FETCH",
    args: z.object({ url: z.string().trim().min(1).describe("the http(s) URL of the page") }).strict(),
    description: "Read one web page (e.g. a link the user sent) and get its title and readable text.",
  },
  news_search: {
    marker: "KINEWS",
    args: query("keywords of the news topic"),
    description: "Search the news feeds you follow, newest first.",
  },
} as const satisfies Record<string, { marker: MarkerName | undefined; args: z.ZodObject; description: string }>;

export type ToolName = keyof typeof TOOLS;

/** The tool specs to send for the tools this setup has (`lookups` = the lookup markers available). */
export function toolSpecs(lookups: readonly MarkerName[]): ToolSpec[] {
  return (Object.entries(TOOLS) as [ToolName, (typeof TOOLS)[ToolName]][])
    .filter(([, t]) => !t.marker || MARKERS.get(t.marker)?.offer !== "lookup" || lookups.includes(t.marker))
    .map(([name, t]) => {
      const { $schema: _ignored, ...parameters } = z.toJSONSchema(t.args) as Record<string, unknown>;
      return { name, description: t.description, parameters };
    });
}

/** The payload a tool call stands for, or why its arguments are unusable. */
export function toolPayload(name: string, input: unknown): { ok: true; tool: ToolName; payload: string } | { ok: false; error: string } {
  if (!Object.hasOwn(TOOLS, name)) return { ok: false, error: `unknown tool ${name}` };
  const tool = name as ToolName;
  const parsed = TOOLS[tool].args.safeParse(input);
  if (!parsed.success) return { ok: false, error: `invalid arguments for ${name}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(input)"} ${i.message}`).join("; ")}` };
  const data = parsed.data as { query?: string; url?: string };
  return { ok: true, tool, payload: (data.query ?? data.url)! };
}
