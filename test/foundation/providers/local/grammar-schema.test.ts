import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toGrammarSchema, zodToGrammarSchema } from "../../../../core/foundation/providers/local/json-grammar-schema.ts";
import { boundedSchema, worstCase } from "../../../../core/foundation/providers/local/json-budget.ts";
import { extractionGrammar } from "../../../../core/conversation/extraction/extract.ts";
import { judgeSchema } from "../../../../core/conversation/correction/judge.ts";
import { ruleSchema } from "../../../../core/conversation/correction/rule-derivation.ts";

describe("zod schemas as grammar schemas", () => {
  it("translates a zod schema into the part a grammar can express", () => {
    const schema = z.object({
      name: z.string().regex(/^[a-z]+$/),
      age: z.number().int().min(0).max(150),
      mood: z.enum(["happy", "sad"]),
      note: z.string().max(40).nullable().optional(),
      tags: z.array(z.string()).max(3),
    });
    expect(zodToGrammarSchema(schema)).toEqual({
      type: "object",
      properties: {
        name: { type: "string" },
        age: { type: "integer" },
        mood: { enum: ["happy", "sad"] },
        // zod counts UTF-16 units, the grammar characters: half the limit is safe for emoji too.
        note: { oneOf: [{ type: "string", maxLength: 20 }, { type: "null" }] },
        tags: { type: "array", items: { type: "string" }, maxItems: 3 },
      },
      required: ["name", "age", "mood", "tags"],
      additionalProperties: false,
    });
  });

  it("reads a tool's JSON Schema, refs included", () => {
    const tool = { type: "object", properties: { q: { $ref: "#/definitions/Q" } }, definitions: { Q: { type: "string", pattern: "x" } } };
    expect(toGrammarSchema(tool)).toEqual({
      type: "object",
      properties: { q: { $ref: "#/$defs/Q" } },
      additionalProperties: false,
      $defs: { Q: { type: "string" } },
    });
  });
});

describe("bounds that make every JSON answer fit the token limit", () => {
  it.each([
    ["extraction", extractionGrammar, 768],
    ["judge", judgeSchema, 400],
    ["rule", ruleSchema, 400],
  ] as const)("%s: the longest answer the bounded schema allows fits the token limit", (_n, schema, tokens) => {
    const plain = zodToGrammarSchema(schema);
    expect(worstCase(plain)).toBeGreaterThan(tokens);
    const bounded = boundedSchema(plain, tokens)!;
    expect(bounded).toBeDefined();
    expect(worstCase(bounded)).toBeLessThanOrEqual(tokens);
  });

  it("gives up on a budget no answer fits", () => {
    expect(boundedSchema(zodToGrammarSchema(extractionGrammar), 100)).toBeUndefined();
  });

  it("gives up on a recursive schema", () => {
    expect(boundedSchema({ type: "object", properties: { a: { $ref: "#/$defs/A" } } }, 4000)).toBeUndefined();
  });
});

describe("every JSON call passes its schema", () => {
  it("no call in core/ asks for JSON except through completeJson, which passes the zod schema", () => {
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith(".ts") && /\bjson: true,/.test(readFileSync(path, "utf8"))) hits.push(path);
      }
    };
    walk("core");
    expect(hits).toEqual([join("core", "foundation", "util", "model-json.ts")]);
    expect(readFileSync(hits[0]!, "utf8")).toMatch(/json: true, schema,/);
  });
});
