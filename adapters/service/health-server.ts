import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describeError, type Lilo, type Logger } from "../../core/index.ts";
import { isLoopback } from "../web/server.ts";
import type { PromMetrics } from "./metrics.ts";

/** Where it listens: LILO_HEALTH_HOST and LILO_HEALTH_PORT (0 in tests: any free port). */
export interface HealthServerOptions {
  host: string;
  port: number;
  metrics: PromMetrics;
  /** The chat adapters this process started ("telegram", "matrix"). */
  adapters: string[];
}

/** The running health and metrics server. */
export interface HealthServer {
  address: string;
  port: number;
  /** From now on `/healthz` answers 503: the process is stopping. */
  stopping(): void;
  close(): Promise<void>;
}

/**
 * `GET /healthz` (JSON: ok, uptime, the adapters and their last contact, the
 * last turn, the backlog, whether the database takes writes; 503 while
 * stopping or when the database cannot be written) and `GET /metrics` (the
 * Prometheus text format) for a supervisor (Docker's HEALTHCHECK, systemd,
 * Prometheus). Nothing else is served, and no user's data is in either.
 */
export async function startHealthServer(lilo: Lilo, logger: Logger, o: HealthServerOptions): Promise<HealthServer> {
  const started = Date.now();
  let stopping = false;
  o.metrics.watch(lilo);
  const healthz = (res: ServerResponse) => {
    const writable = lilo.health.writable();
    const ok = !stopping && writable;
    // A closed database (a stop, a failing disk) still gets its 503 with what can be said.
    const contacts = new Map(orElse(() => lilo.contacts.list(), []).map((c) => [c.name, c.lastOkAt]));
    const pending = orElse(() => lilo.health.pending(), { inbox: null, jobs: null });
    send(res, ok ? 200 : 503, "application/json", {
      ok,
      status: stopping ? "stopping" : "running",
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
      adapters: o.adapters.map((name) => ({ name, lastContactAt: contacts.get(name) ?? null })),
      lastTurnAt: lilo.health.lastTurnAt() ?? null,
      inboxPending: pending.inbox,
      jobsPending: pending.jobs,
      databaseWritable: writable,
    });
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain", "only GET\n");
    if (path === "/healthz") return healthz(res);
    if (path === "/metrics") return send(res, 200, o.metrics.contentType, await o.metrics.text());
    send(res, 404, "text/plain", "not found: /healthz and /metrics are served here\n");
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error("health request failed", { path: req.url, error: describeError(err) });
      if (!res.headersSent) send(res, 500, "text/plain", "internal error\n");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  // The host comes from LILO_HEALTH_HOST, set on purpose; the numbers are an operator's, still say it is reachable.
  if (!isLoopback(o.host)) logger.warn("the health and metrics server listens beyond this machine", { host: o.host, port });
  logger.info(`health and metrics on http://${address.includes(":") ? `[${address}]` : address}:${port}/healthz and /metrics`);
  return {
    address,
    port,
    stopping: () => void (stopping = true),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function orElse<T, F>(read: () => T, fallback: F): T | F {
  try {
    return read();
  } catch {
    return fallback;
  }
}

function send(res: ServerResponse, status: number, type: string, body: unknown): void {
  const text = typeof body === "string" ? body : `${JSON.stringify(body)}\n`;
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  res.end(text);
}
