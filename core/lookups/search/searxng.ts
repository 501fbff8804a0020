import { z } from "zod";
import type { SearchResult, WebSearch } from "../../foundation/ports/web-search.ts";
import { getJson } from "../web/get-json.ts";

/** The part of SearXNG's `/search?format=json` answer Lilo reads. */
const SearxngAnswer = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().default(""),
      content: z.string().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});

/**
 * A self-hosted SearXNG instance through its JSON API (no key). The
 * instance must allow the json format (`search.formats: [html, json]` in
 * its settings.yml); otherwise it answers 403, which is reported as such.
 */
export class SearxngSearch implements WebSearch {
  readonly provider = "searxng";

  constructor(private readonly options: { baseUrl: string; timeoutMs: number }) {}

  async search(query: string, { limit, signal }: { limit: number; signal?: AbortSignal }): Promise<SearchResult[]> {
    const url = new URL("search", this.options.baseUrl.endsWith("/") ? this.options.baseUrl : `${this.options.baseUrl}/`);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    const answer = await getJson(url, { provider: this.provider, timeoutMs: this.options.timeoutMs, schema: SearxngAnswer, ...(signal ? { signal } : {}) });
    return answer.results.slice(0, limit).map((r) => ({
      title: r.title,
      url: r.url,
      snippet: r.content ?? "",
      ...(r.publishedDate ? { date: r.publishedDate } : {}),
    }));
  }
}
