import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import ipaddr from "ipaddr.js";
import { ANY_USER, ConfigError, type Lilo, type Logger } from "../../core/index.ts";
import { type MemoryOwner } from "../../core/internal.ts";
import { createWebApp } from "./app.tsx";
import type { WebSources } from "./sources.ts";
import { webConfig } from "./config.ts";
import { loginLink } from "./login-link.ts";

/** Where and how the pages listen. */
export interface WebServerOptions {
  host: string;
  port: number;
  /** The host was chosen on purpose (`--host`, LILO_WEB_HOST): only then may it be other than loopback. */
  hostGiven: boolean;
  /** Login links point here (a reverse proxy's address); default http://host:port. */
  publicUrl?: string | undefined;
  sources?: Partial<WebSources>;
}

/** Running pages: their address, login links for them, and stopping. */
export interface WebServer {
  url: string;
  /** A one-time login link: for one user, or for the operator (`ANY_USER`, sees everyone). */
  loginLink(owner: MemoryOwner): string;
  close(): Promise<void>;
}

/** Is `host` a loopback address (127.0.0.0/8, ::1, localhost)? */
export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  try {
    const addr = ipaddr.process(host);
    return addr.range() === "loopback";
  } catch {
    return false; // a host name other than localhost: it may resolve to anything
  }
}

/** Where a program on this machine reaches a server listening on `host`: a wildcard address through loopback. */
function localHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts the pages. Refuses (ConfigError) an address other than loopback unless it was given on purpose:
 * the pages show everything Lilo remembers.
 */
export async function startWebServer(lilo: Lilo, logger: Logger, options: WebServerOptions): Promise<WebServer> {
  if (!isLoopback(options.host) && !options.hostGiven) {
    throw new ConfigError(
      `Lilo's pages listen only on a loopback address unless you choose one: pass --host ${options.host} (or set LILO_WEB_HOST) on purpose`,
    );
  }
  const instance = randomBytes(12).toString("base64url");
  const app = createWebApp({
    lilo,
    logger,
    instance,
    sessionHours: webConfig(lilo.config).sessionHours,
    publicUrl: options.publicUrl,
    ...(options.sources ? { sources: options.sources } : {}),
  });
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = options.publicUrl?.replace(/\/+$/, "") ?? `http://${shownHost}:${port}`;
  // `lilo web --link` in another process finds these pages by this record and mints its link in the same database.
  lilo.webAccess.pages.announce({ instance, url, local: `http://${localHost(options.host)}:${port}`, pid: process.pid });
  return {
    url,
    loginLink: (owner = ANY_USER) => loginLink(lilo, url, owner),
    close: () =>
      new Promise<void>((resolve, reject) => {
        lilo.webAccess.pages.withdraw(instance);
        server.close((err) => (err ? reject(err) : resolve()));
        // A browser keeps idle connections open; without this, close would wait for them.
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
