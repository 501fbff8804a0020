/**
 * A fake of the outside web on 127.0.0.1 for lookup tests: SearXNG's
 * `/search?format=json`, the Brave Search API (`/res/v1/web/search`),
 * RSS 2.0 and Atom feeds, and pages (HTML, text, JSON, an image, redirects).
 * Content is set per path; every request is recorded.
 */
import type { ServerResponse } from "node:http";
import { sendJson, startFakeServer, type RecordedRequest } from "./http-server.ts";
import type { SearchResult } from "../../core/index.ts";

export interface FakeWeb {
  url: string;
  requests: RecordedRequest[];
  /** Results both search APIs return (in their own shapes) for any query. */
  results: SearchResult[];
  /** Serves `body` at `path` with `type`. */
  page(path: string, type: string, body: string | Buffer): FakeWeb;
  /** `path` sends headers and a first chunk, then never finishes (for the time cap). */
  trickle(path: string, type: string): FakeWeb;
  /** `path` answers 302 to `location`. */
  redirect(path: string, location: string): FakeWeb;
  /** Requests to SearXNG's search API. */
  searxngCalls(): RecordedRequest[];
  braveCalls(): RecordedRequest[];
  close(): Promise<void>;
}

/** Starts the fake web; `braveKey` is the key the Brave API demands. */
export async function startFakeWeb(opts: { braveKey?: string } = {}): Promise<FakeWeb> {
  const pages = new Map<string, { status: number; type: string; body: string | Buffer; location?: string }>();
  const trickling = new Map<string, string>();
  let self: FakeWeb;
  const server = await startFakeServer((req, res) => {
    if (req.path === "/search") return searxng(req, res, self.results);
    if (req.path === "/res/v1/web/search") return brave(req, res, self.results, opts.braveKey);
    if (trickling.has(req.path)) {
      res.writeHead(200, { "content-type": trickling.get(req.path)! });
      res.write("<html><body><p>Anfang");
      return; // never ends; close() tears the socket down
    }
    const p = pages.get(req.path);
    if (!p) return sendJson(res, 404, { error: "not found" });
    res.writeHead(p.status, { "content-type": p.type, ...(p.location ? { location: p.location } : {}) });
    res.end(p.body);
  });
  self = {
    url: server.url,
    requests: server.requests,
    results: [],
    page: (path, type, body) => (pages.set(path, { status: 200, type, body }), self),
    trickle: (path, type) => (trickling.set(path, type), self),
    redirect: (path, location) => (pages.set(path, { status: 302, type: "text/html", body: "", location }), self),
    searxngCalls: () => server.requests.filter((r) => r.path === "/search"),
    braveCalls: () => server.requests.filter((r) => r.path === "/res/v1/web/search"),
    close: () => server.close(),
  };
  return self;
}

/** SearXNG answers only when format=json is allowed and asked for (403 otherwise, as a default instance does). */
function searxng(req: RecordedRequest, res: ServerResponse, results: SearchResult[]): void {
  if (req.query.get("format") !== "json") return sendJson(res, 403, { error: "format not allowed" });
  sendJson(res, 200, {
    query: req.query.get("q"),
    number_of_results: results.length,
    results: results.map((r, i) => ({
      url: r.url,
      title: r.title,
      content: r.snippet,
      engine: "duckduckgo",
      parsed_url: ["https", new URL(r.url).host, new URL(r.url).pathname, "", "", ""],
      engines: ["duckduckgo"],
      positions: [i + 1],
      score: 1 / (i + 1),
      category: "general",
      publishedDate: r.date ?? null,
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  });
}

function brave(req: RecordedRequest, res: ServerResponse, results: SearchResult[], key: string | undefined): void {
  if (key !== undefined && req.headers["x-subscription-token"] !== key) {
    return sendJson(res, 401, {
      type: "ErrorResponse",
      error: { id: "x", status: 401, code: "SUBSCRIPTION_TOKEN_INVALID", detail: "The provided subscription token is invalid." },
    });
  }
  const count = Number(req.query.get("count") ?? 20);
  sendJson(res, 200, {
    type: "search",
    query: { original: req.query.get("q"), more_results_available: false },
    mixed: { type: "mixed", main: [] },
    web: {
      type: "search",
      family_friendly: true,
      results: results.slice(0, count).map((r) => ({
        type: "search_result",
        title: r.title,
        url: r.url,
        description: r.snippet.replace(/(\w+)/, "<strong>$1</strong>"),
        is_source_local: false,
        language: "de",
        ...(r.date ? { page_age: r.date, age: "2 days ago" } : {}),
      })),
    },
  });
}

/** An RSS 2.0 document. */
export function rss(title: string, items: Array<{ guid?: string; title: string; link?: string; description?: string; pubDate?: string }>): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${esc(title)}</title><link>https://news.example/</link><description>${esc(title)}</description>
${items
  .map(
    (i) =>
      `<item><title>${esc(i.title)}</title>${i.link ? `<link>${esc(i.link)}</link>` : ""}${i.guid ? `<guid isPermaLink="false">${esc(i.guid)}</guid>` : ""}${
        i.pubDate ? `<pubDate>${new Date(i.pubDate).toUTCString()}</pubDate>` : ""
      }${i.description ? `<description>${esc(i.description)}</description>` : ""}</item>`,
  )
  .join("\n")}
</channel></rss>`;
}

/** An Atom document. */
export function atom(title: string, entries: Array<{ id: string; title: string; link: string; summary?: string; updated: string }>): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title><id>urn:feed:${title}</id><updated>2026-12-01T00:00:00Z</updated>
${entries.map((e) => `<entry><id>${e.id}</id><title>${e.title}</title><link href="${e.link}"/><updated>${e.updated}</updated>${e.summary ? `<summary>${e.summary}</summary>` : ""}</entry>`).join("\n")}
</feed>`;
}
