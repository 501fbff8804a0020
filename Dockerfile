# Lilo in a container: `docker compose up -d` or `podman build -t lilo . && podman run ...`
# (docs/operations.md#container). Data lives in the /data volume; configuration comes
# from the environment (compose's env_file: .env).

# Build: native modules (better-sqlite3, usearch) compile here if no prebuilt binary fits.
FROM node:22-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# Production dependencies only; the `prepare` script builds the `lilo` CLI into dist/cli.
RUN npm ci --omit=dev --no-audit --no-fund \
  && npm cache clean --force

# Run: the slim image, the built app, a non-root user.
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    LILO_HOME=/app \
    LILO_DATA_DIR=/data \
    LILO_HEALTH_PORT=9464 \
    LILO_LOG_FORMAT=json
WORKDIR /app
COPY --from=build /app /app
RUN ln -s /app/admin-cli/bin.js /usr/local/bin/lilo \
  && mkdir -p /data \
  && chown node:node /data \
  && chmod 700 /data
USER node
VOLUME ["/data"]
# /healthz answers 200 while Lilo runs and the database can be written, 503 while she stops.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.LILO_HEALTH_PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) starts the graceful stop; give it more than LILO_SHUTDOWN_GRACE_S (docker stop -t 20).
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "main.ts"]
