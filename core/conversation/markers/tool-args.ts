import { z } from "zod";

/**
 * The arguments of a native tool that takes one search query: the query is
 * the marker's payload. A schema the model's arguments must pass (a strict
 * object, no empty query) and the JSON schema sent to it in one.
 */
export function queryArgs(description: string) {
  return z.object({ query: z.string().trim().min(1).describe(description) }).strict();
}
