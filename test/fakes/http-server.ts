import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a fake server received, body parsed as JSON when it is JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: unknown;
  rawBody: string;
  /** The body's bytes as they came (uploads are binary). */
  rawBytes: Buffer;
}

export type FakeHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Every request in arrival order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts an HTTP server on 127.0.0.1 with an ephemeral port; for fakes of outside APIs. */
export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  // The request stream can fail (a client hanging up): such a request is simply not recorded.
  const server = createServer((req, res) => void record(req, res).catch(() => res.destroy()));
  async function record(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBytes = Buffer.concat(chunks);
    const rawBody = rawBytes.toString("utf8");
    let body: unknown = rawBody;
    if (rawBody && (req.headers["content-type"] ?? "").includes("json")) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = rawBody;
      }
    }
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    const rec: RecordedRequest = { method: req.method ?? "GET", path: u.pathname, query: u.searchParams, headers: req.headers, body, rawBody, rawBytes };
    requests.push(rec);
    try {
      await handler(rec, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: String(err) }));
    }
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}
