import { urlSecrets } from "../util/redact.ts";
import type { LiloConfig } from "./config.ts";
import { getAt, type Leaf } from "./table.ts";

/**
 * The secrets of a configuration, derived from its table (the core's leaves
 * and every registered section's): the value of each leaf marked `secret`,
 * and the password, user or key inside any URL a leaf holds (base URLs, a
 * homeserver, feeds). One list: createLilo registers it for the redaction of
 * every log line and error, and `lilo settings` shows the `secret` leaves
 * only as set / not set.
 */
export function configSecrets(config: LiloConfig): string[] {
  const out = config.table.leaves.flatMap((leaf) => {
    const values = stringsIn(getAt(config, leaf.path));
    return [...(leaf.secret ? values : []), ...values.flatMap((v) => urlSecrets(v))];
  });
  return [...new Set(out)];
}

/** Is this secret leaf set in the configuration? (The value itself is never shown.) */
export function isSecretSet(leaf: Leaf, config: LiloConfig): boolean {
  return stringsIn(getAt(config, leaf.path)).length > 0;
}

/** The non-empty strings of a leaf's value: itself, or the items of a list (feed URLs). */
function stringsIn(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.filter((v): v is string => typeof v === "string" && v !== "");
}
