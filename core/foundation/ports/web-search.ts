/** One web search hit, as the model sees it (docs/spec.md §5, `[SEARCH:]`). */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  /** Publication date as the provider gives it (ISO or "3 days ago"); absent when unknown. */
  date?: string;
}

/** A web search provider (SearXNG, Brave Search API). Throws LookupError on failure. */
export interface WebSearch {
  /** Provider name, stored in the search log. */
  readonly provider: string;
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<SearchResult[]>;
}
