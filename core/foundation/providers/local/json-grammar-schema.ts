import { z } from "zod";

/**
 * The JSON Schema subset node-llama-cpp turns into a grammar (its
 * GbnfJsonSchema): types, properties/required, items, enum/const, oneOf,
 * string length and date formats, $defs/$ref. Kept structural here so this
 * file does not import the library.
 */
export type GrammarSchema = { readonly [key: string]: unknown };

/** What stands for "any JSON value" where a schema allows anything: a scalar (a grammar cannot recurse without a name). */
const ANY: GrammarSchema = { type: ["string", "number", "boolean", "null"] };
const STRING_FORMATS = new Set(["date-time", "time", "date"]);

/**
 * A zod schema as the grammar subset. Rules a grammar cannot express
 * (number ranges, regex patterns, refinements) are dropped: the grammar
 * guarantees the shape, and the zod validation after parsing still checks
 * everything.
 */
export function zodToGrammarSchema(schema: z.ZodType): GrammarSchema {
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any", reused: "inline" }) as Record<string, unknown>;
  return toGrammarSchema(json);
}

/** A JSON Schema (zod's output, or a tool's parameters) reduced to the grammar subset. */
export function toGrammarSchema(schema: unknown): GrammarSchema {
  const root = convert(schema);
  const defs = (schema as { $defs?: Record<string, unknown>; definitions?: Record<string, unknown> } | undefined) ?? {};
  const all = { ...defs.definitions, ...defs.$defs };
  if (Object.keys(all).length === 0) return root;
  return { ...root, $defs: Object.fromEntries(Object.entries(all).map(([k, v]) => [k, convert(v)])) };
}

function convert(node: unknown): GrammarSchema {
  if (node === true || node === undefined || node === null || typeof node !== "object") return ANY;
  const s = node as Record<string, unknown>;
  const description = typeof s.description === "string" ? { description: s.description } : {};
  if (typeof s.$ref === "string") return { $ref: s.$ref.replace("#/definitions/", "#/$defs/"), ...description };
  if ("const" in s) return { const: s.const, ...description };
  if (Array.isArray(s.enum)) return { enum: s.enum, ...description };
  const union = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as unknown[] | undefined;
  if (union) return { oneOf: union.map(convert), ...description };
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return convert(s.allOf[0]);
  const type = s.type;
  if (Array.isArray(type)) {
    if (type.every((t) => ["string", "number", "integer", "boolean", "null"].includes(String(t)))) return { type, ...description };
    return { oneOf: type.map((t) => convert({ ...s, type: t })), ...description };
  }
  switch (type) {
    case "object":
      return objectSchema(s, description);
    case "array":
      return arraySchema(s, description);
    case "string":
      if (typeof s.format === "string" && STRING_FORMATS.has(s.format)) return { type, format: s.format, ...description };
      return { type, ...pick(s, ["minLength"]), ...maxLength(s), ...description };
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return { type, ...description };
    default:
      return ANY;
  }
}

function objectSchema(s: Record<string, unknown>, description: object): GrammarSchema {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, convert(v)]));
  const extra = s.additionalProperties;
  // No properties and no rule: an open record ("z.record", a tool without parameters).
  const additionalProperties = extra === undefined ? Object.keys(properties).length === 0 : typeof extra === "object" ? convert(extra) : extra === true;
  return {
    type: "object",
    properties,
    ...(Array.isArray(s.required) ? { required: s.required } : {}),
    additionalProperties,
    ...pick(s, ["minProperties", "maxProperties"]),
    ...description,
  };
}

function arraySchema(s: Record<string, unknown>, description: object): GrammarSchema {
  return {
    type: "array",
    ...(s.items !== undefined && !Array.isArray(s.items) ? { items: convert(s.items) } : {}),
    ...(Array.isArray(s.prefixItems) ? { prefixItems: s.prefixItems.map(convert) } : {}),
    ...pick(s, ["minItems", "maxItems"]),
    ...description,
  };
}

/**
 * zod counts a string's length in UTF-16 units, the grammar in characters; a
 * character beyond the basic plane (an emoji) is two units. Half the limit in
 * characters keeps every answer the grammar allows within zod's limit.
 */
function maxLength(s: Record<string, unknown>): { maxLength?: number } {
  return typeof s.maxLength === "number" ? { maxLength: Math.floor(s.maxLength / 2) } : {};
}

function pick(s: Record<string, unknown>, keys: string[]): Record<string, number> {
  return Object.fromEntries(keys.filter((k) => typeof s[k] === "number").map((k) => [k, s[k] as number]));
}
