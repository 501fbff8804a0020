import type { GrammarSchema } from "./json-grammar-schema.ts";

/**
 * A grammar guarantees the shape of a JSON answer, but not that it ends: a
 * small model caught in a loop inside a string ("ja ja ja …") writes until the
 * token limit, and the cut-off JSON is lost. This file bounds a schema so that
 * even the longest answer it allows fits into the token limit: every string
 * and array gets a maximum, chosen as generous as the budget permits.
 * The local model uses it only for a second attempt after a first one ran
 * out of tokens, so a well-behaved model never feels the bounds.
 *
 * Worst case per token: a token is at least one byte, a character at most
 * four bytes; whitespace between values is bounded by the JSON grammar
 * (a newline and the indentation), numbers by 16 digits per part.
 */

/** Bytes a separator, a key's quotes and colon, and the whitespace around a value may take at most. */
const PER_VALUE = 24;
const NUMBER = 52;
const BYTES_PER_CHAR = 4;

/** The schema with maxLength/maxItems such that no valid answer exceeds `maxTokens`; undefined when none can (refs, a tiny budget). */
export function boundedSchema(schema: GrammarSchema, maxTokens: number): GrammarSchema | undefined {
  if (JSON.stringify(schema).includes('"$ref"')) return undefined;
  const budget = Math.floor(maxTokens * 0.9);
  // Halve the string length and the item count in turn, from 8 items of 256 characters down to 1 of 4.
  let items = 8;
  let chars = 256;
  for (let step = 0; ; step++) {
    const bounded = bound(schema, items, chars);
    if (worstCase(bounded) <= budget) return bounded;
    if (items === 1 && chars === 4) return undefined;
    if ((step % 2 === 0 && chars > 4) || items === 1) chars = Math.max(4, chars / 2);
    else items = Math.max(1, items / 2);
  }
}

/** The most tokens an answer of a bounded schema can take. */
export function worstCase(node: GrammarSchema): number {
  if ("const" in node) return PER_VALUE + byteLength(JSON.stringify(node.const));
  if (Array.isArray(node.enum)) return PER_VALUE + Math.max(...node.enum.map((v) => byteLength(JSON.stringify(v))));
  if (Array.isArray(node.oneOf)) return Math.max(...(node.oneOf as GrammarSchema[]).map(worstCase));
  const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
  return Math.max(...types.map((t) => worstOfType(node, t)));
}

function worstOfType(node: GrammarSchema, type: string): number {
  switch (type) {
    case "string":
      return PER_VALUE + (typeof node.format === "string" ? 40 : BYTES_PER_CHAR * Number(node.maxLength ?? Infinity));
    case "number":
    case "integer":
      return PER_VALUE + NUMBER;
    case "boolean":
    case "null":
      return PER_VALUE + 5;
    case "array": {
      const item = node.items ? worstCase(node.items as GrammarSchema) : 0;
      const prefix = ((node.prefixItems as GrammarSchema[] | undefined) ?? []).reduce((sum, p) => sum + worstCase(p), 0);
      return PER_VALUE + prefix + Number(node.maxItems ?? Infinity) * item;
    }
    case "object": {
      const props = Object.entries((node.properties ?? {}) as Record<string, GrammarSchema>);
      const named = props.reduce((sum, [k, v]) => sum + byteLength(k) + worstCase(v), 0);
      // Extra keys are strings the grammar does not bound: an open record has no worst case.
      return node.additionalProperties ? Infinity : PER_VALUE + named;
    }
    default:
      return Infinity;
  }
}

function bound(node: GrammarSchema, items: number, chars: number): GrammarSchema {
  if (Array.isArray(node.oneOf)) return { ...node, oneOf: (node.oneOf as GrammarSchema[]).map((n) => bound(n, items, chars)) };
  const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type];
  const out: Record<string, unknown> = { ...node };
  if (types.includes("string") && typeof node.format !== "string") out.maxLength = Math.min(Number(node.maxLength ?? chars), chars);
  if (types.includes("array")) {
    out.maxItems = Math.max(Number(node.minItems ?? 0), Math.min(Number(node.maxItems ?? items), items));
    if (node.items) out.items = bound(node.items as GrammarSchema, items, chars);
    if (Array.isArray(node.prefixItems)) out.prefixItems = (node.prefixItems as GrammarSchema[]).map((p) => bound(p, items, chars));
  }
  if (types.includes("object")) {
    const props = (node.properties ?? {}) as Record<string, GrammarSchema>;
    out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, bound(v, items, chars)]));
    // The named properties only: extra keys would be unbounded strings.
    if (Object.keys(props).length > 0) out.additionalProperties = false;
  }
  return out;
}

function byteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}
