/**
 * The native tools (docs/spec.md §5): memory_search (memory-tool.ts) and the tool of
 * each fetch marker this setup answers, read from the registry. JSON schemas
 * come from the zod schemas that also validate the model's arguments; a
 * marker's tool takes the marker's path, so both give the same text.
 */
import { z } from "zod";
import type { ToolSpec } from "../../foundation/ports/chat-model.ts";
import type { LookupName } from "../../lookups/lookups.ts";
import type { FetchMarkerDefinition, MarkerTool } from "../markers/marker.ts";
import type { MarkerRegistry } from "../markers/marker-registry.ts";
import { answeredFetchMarkers } from "../markers/available.ts";
import { MEMORY_TOOL } from "./memory-tool.ts";

/** A tool of this setup: the memory tool, or the fetch marker a tool stands for. */
type Tool = { tool: MarkerTool; marker?: FetchMarkerDefinition };

/** Every tool this setup has, in the order they are sent. */
function tools(registry: MarkerRegistry, offered: readonly LookupName[]): Tool[] {
  const markers = answeredFetchMarkers(registry, offered).flatMap((marker) => (marker.tool ? [{ tool: marker.tool, marker }] : []));
  return [{ tool: MEMORY_TOOL }, ...markers];
}

/** The tool specs to send for the tools this setup has (`offered` = the lookups available). */
export function toolSpecs(registry: MarkerRegistry, offered: readonly LookupName[]): ToolSpec[] {
  return tools(registry, offered).map(({ tool }) => {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.args) as Record<string, unknown>;
    return { name: tool.name, description: tool.description, parameters };
  });
}

/** What a tool call stands for: the memory tool or a fetch marker, with its payload. */
type ToolCallPayload = { ok: true; marker: FetchMarkerDefinition | undefined; payload: string } | { ok: false; error: string };

/**
 * The payload a tool call stands for, or why its name or arguments are
 * unusable. Any marker's tool is recognised; one this setup lacks is then
 * answered as unavailable by the marker path.
 */
export function toolPayload(registry: MarkerRegistry, name: string, input: unknown): ToolCallPayload {
  const all: Tool[] = [{ tool: MEMORY_TOOL }, ...registry.all.flatMap((m) => (m.kind === "fetch" && m.tool ? [{ tool: m.tool, marker: m }] : []))];
  const found = all.find((t) => t.tool.name === name);
  if (!found) return { ok: false, error: `unknown tool ${name}` };
  const parsed = found.tool.args.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(input)"} ${i.message}`).join("; ");
    return { ok: false, error: `invalid arguments for ${name}: ${issues}` };
  }
  const data = parsed.data as { query?: string; url?: string };
  const payload = found.tool.payload ? found.tool.payload(parsed.data as Record<string, unknown>) : (data.query ?? data.url);
  if (payload === undefined) return { ok: false, error: `the tool ${name} takes a query or a url` };
  return { ok: true, marker: found.marker, payload };
}
