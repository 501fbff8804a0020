/**
 * memory_search, the one native tool without a text marker. The notes and
 * important memories already reach every cheat sheet by meaning, so a marker
 * for them would only repeat the sheet; a model with tool calls may still
 * search them again with its own words. It has no marker, so it cannot live
 * in the marker registry: it lives here, next to the tool loop that is its
 * only user, and tool-specs.ts sends it before the fetch markers' tools.
 */
import type { Memory } from "../../memory/memory.ts";
import type { MarkerTool } from "../markers/marker.ts";
import { queryArgs } from "../markers/tool-args.ts";
import { memoryResultText } from "../prompts/lookups.ts";

/** The memory tool's spec. */
export const MEMORY_TOOL: MarkerTool = {
  name: "memory_search",
  description: "Search your notes and important memories about the user by meaning.",
  args: queryArgs("what to look for, in a few words"),
};

/** Answers memory_search: important memories first, then notes, `k` of each. */
export async function memorySearch(
  deps: { memory: Memory; k: number; language: "de" | "en"; timeZone: string },
  userId: string,
  query: string,
): Promise<string> {
  const [notes, important] = await Promise.all([
    deps.memory.search(query, { userId, store: "notes", k: deps.k }),
    deps.memory.search(query, { userId, store: "important", k: deps.k }),
  ]);
  return memoryResultText([...important, ...notes], deps.language, deps.timeZone);
}
