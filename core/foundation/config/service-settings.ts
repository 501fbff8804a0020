import { z } from "zod";
import { int, opt, setting as s } from "./rules.ts";

/* How the process runs: log level, graceful stop, health and metrics, the env file. */

const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;

/** run: a section of the table in schema.ts. */
export const runSettings = z.object({
  logLevel: s(
    z
      .string()
      .trim()
      .default("info")
      .pipe(z.enum(LOG_LEVELS, { error: (i) => `use one of ${LOG_LEVELS.join(", ")}, not "${String(i.input)}"` })),
    { env: "LILO_LOG_LEVEL", doc: "debug, info, warn, error", group: "data" },
  ),
  shutdownGraceS: s(int(10), {
    env: "LILO_SHUTDOWN_GRACE_S",
    doc: "on SIGTERM/SIGINT, how long running turns may finish; a turn still running then is cancelled and answered after the next start",
    group: "service",
  }),
  healthPort: s(int(0), {
    env: "LILO_HEALTH_PORT",
    doc: "0: off; a port: GET /healthz (JSON, 503 while stopping or when the database cannot be written) and GET /metrics (Prometheus)",
    group: "service",
  }),
  healthHost: s(z.string().trim().min(1).default("127.0.0.1"), {
    env: "LILO_HEALTH_HOST",
    doc: "address the health and metrics server listens on (loopback unless set here on purpose)",
    group: "service",
  }),
  envFile: s(opt(), {
    env: "LILO_ENV_FILE",
    doc: "read by npm start and lilo instead of $LILO_HOME/.env (it must exist); set only in the real environment",
    group: "data",
    example: ".env",
  }),
});
