import { z } from "zod";
import { int, opt, positiveInt, setting as s } from "./rules.ts";

/* How the process runs: log level, format and file size, graceful stop, health and metrics, the env file. */

const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
const LOG_FORMATS = ["text", "json"] as const;

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
  logFormat: s(
    z
      .string()
      .trim()
      .toLowerCase()
      .default("text")
      .pipe(z.enum(LOG_FORMATS, { error: (i) => `use text or json, not "${String(i.input)}"` })),
    {
      env: "LILO_LOG_FORMAT",
      doc: "text: readable lines; json: one JSON object a line (time, level, event, ids and sizes) for journald, container logs and log shippers",
      group: "service",
    },
  ),
  logMaxMb: s(positiveInt(10), {
    env: "LILO_LOG_MAX_MB",
    doc: "size in MB at which data/lilo.log is rotated to lilo.log.1 (the five newest old files are kept)",
    group: "service",
  }),
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
