import type { Logger } from "../../foundation/ports/logger.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { Lookups } from "../../lookups/lookups.ts";
import type { MarkerRegistry } from "../markers/marker-registry.ts";
import { answeredFetchMarkers } from "../markers/available.ts";
import { describeError } from "../../foundation/errors.ts";
import type { ToolCalling } from "../../lookups/tool-calling.ts";

/**
 * The markers the chat prompt describes: the chat markers plus the lookup
 * markers this setup answers ([SEARCH:], [FETCH:], [NEWS:]); when the chat
 * model gets native tools, the fetch markers are left out (they are tools
 * then) and only the store markers remain.
 */
export function chatMarkerNames(deps: {
  models: ModelRegistry;
  logger: Logger;
  lookups?: Lookups | undefined;
  tools?: ToolCalling | undefined;
  markers: MarkerRegistry;
}): string[] {
  const registry = deps.markers;
  const answered = answeredFetchMarkers(registry, deps.lookups?.offered() ?? []).map((d) => d.name);
  const all = [...new Set([...registry.chatNames(), ...answered])];
  if (!deps.tools) return all;
  let native = false;
  try {
    native = deps.tools.isNative(deps.models.chatSpec());
  } catch (err) {
    // No chat model configured: the turn reports that itself; the prompt just keeps the markers.
    deps.logger.debug("no chat model to decide on native tools", { error: describeError(err) });
  }
  return native ? all.filter((n) => registry.get(n)?.kind !== "fetch") : all;
}
