import { z } from "zod";
import type { SearchResult, WebSearch } from "../../foundation/ports/web-search.ts";
import { getJson } from "../web/get-json.ts";

/** The part of the Brave Search API's web search answer Lilo reads. */
const BraveAnswer = z.object({
  web: z
    .object({
      results: z.array(
        z.object({
          title: z.string().default(""),
          url: z.string(),
          description: z.string().nullish(),
          page_age: z.string().nullish(),
          age: z.string().nullish(),
        }),
      ),
    })
    .optional(),
});

/**
 * The hosted Brave Search API (free tier with a key): GET
 * `/res/v1/web/search?q=…&count=…` with the `X-Subscription-Token` header.
 * Snippets carry `<strong>` highlights, which are removed.
 */
export class BraveSearch implements WebSearch {
  readonly provider = "brave";

  constructor(private readonly options: { baseUrl: string; apiKey: string; timeoutMs: number }) {}

  async search(query: string, { limit, signal }: { limit: number; signal?: AbortSignal }): Promise<SearchResult[]> {
    const url = new URL("/res/v1/web/search", this.options.baseUrl);
    url.searchParams.set("q", query);
    url.searchParams.set("count", String(Math.min(limit, 20)));
    const answer = await getJson(url, {
      provider: this.provider,
      timeoutMs: this.options.timeoutMs,
      schema: BraveAnswer,
      headers: { "X-Subscription-Token": this.options.apiKey, accept: "application/json" },
      secrets: [this.options.apiKey],
      ...(signal ? { signal } : {}),
    });
    return (answer.web?.results ?? []).slice(0, limit).map((r) => {
      const date = r.page_age ?? r.age;
      return { title: stripTags(r.title), url: r.url, snippet: stripTags(r.description ?? ""), ...(date ? { date } : {}) };
    });
  }
}

function stripTags(s: string): string {
  return s.replace(/<\/?[a-z][^>]*>/gi, "");
}
