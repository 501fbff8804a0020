import {
  ConfigError,
  consoleLogger,
  createLilo,
  loadConfigFromEnv,
  describeError,
  LiloError,
  type Lilo,
  type LiloConfig,
  type LiloPorts,
  type Logger,
} from "./core/index.ts";
import { openToOthers, requireModel, NO_MODEL_HELP, WriterLock, installDir, isEncryptedFile } from "./core/internal.ts";
import { runTerminal } from "./adapters/terminal/terminal.ts";
import { openLogFile, type LogFile } from "./adapters/service/log-file.ts";
import { startConfiguredAdapters } from "./adapters/index.ts";
import type { RunningAdapter } from "./adapters/adapter.ts";
import { ADAPTER_SECTIONS } from "./adapters/config.ts";
import { startJobs, type RunningJobs } from "./jobs/scheduler.ts";
import { startBotPages } from "./adapters/web/with-bot.ts";
import type { SetupStreams } from "./admin-cli/setup/ask.ts";
import { LOCAL_MODEL_CATALOGUE, SCRIPTED_EXAMPLE } from "./admin-cli/commands/setup.ts";
import { localModelsWithBar } from "./admin-cli/download-bar.ts";
import { firstStopSignal, stopGracefully } from "./adapters/service/shutdown.ts";
import { promMetrics, type PromMetrics } from "./adapters/service/metrics.ts";
import { startHealthServer, type HealthServer } from "./adapters/service/health-server.ts";

/**
 * `npm start`: one process for every configured adapter and the scheduled
 * jobs. Without Telegram or Matrix it opens a terminal chat instead.
 * `ports` replaces implementations (the crash tests pass an offline embedder).
 * The process holds the writer lock while it runs, so a restore refuses.
 */
export async function runApp(ports: LiloPorts = {}, terminal: SetupStreams | undefined = attachedTerminal()): Promise<number> {
  const realEnv = new Set(Object.keys(process.env));
  let config: LiloConfig;
  try {
    // The core's variables and the adapters' sections, read and checked together.
    config = loadConfigFromEnv(process.env, ADAPTER_SECTIONS, installDir(import.meta.url));
    if (!config.models.chat) {
      // Nothing configured: the setup asks (in a terminal) or says what to run, then the new .env is read.
      if (!(await firstRunSetup(config, terminal))) return 1;
      for (const k of Object.keys(process.env)) if (!realEnv.has(k)) delete process.env[k];
      config = loadConfigFromEnv(process.env, ADAPTER_SECTIONS, installDir(import.meta.url));
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
  // Lines go to stderr, and to data/lilo.log once it is open; the terminal chat sends them to the file only (see serve).
  const sink = { write: (line: string) => void process.stderr.write(line) };
  const logger = consoleLogger(config.run.logLevel, (line) => sink.write(line), config.run.logFormat);
  const envFile = config.run.envFile;
  if (openToOthers(envFile)) logger.warn(`${envFile} holds API keys and tokens but other users may read it: chmod 600 ${envFile}`);
  let lilo: Lilo;
  // Counted only when something serves the numbers (LILO_HEALTH_PORT).
  const metrics = config.run.healthPort > 0 ? promMetrics() : undefined;
  try {
    requireModel(config, "chat");
    // A running bot commits all day: SQLite's checkpoints go to a worker, off the event loop.
    lilo = createLilo(config, {
      logger,
      backgroundCheckpoints: true,
      // Saved graphs and residual copies are read once the chats are connected (`lilo.started()` below).
      holdIndexUpkeep: true,
      ...localModelsWithBar(config, logger),
      ...(metrics ? { metrics: metrics.port } : {}),
      ...ports,
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
  try {
    // The one rule for model names: a model its provider does not list is refused here as it is by /model.
    await lilo.models.checkChat();
  } catch (err) {
    process.stderr.write(`${describeError(err)}\n`);
    await lilo.close();
    return 1;
  }
  let lock: WriterLock;
  try {
    lock = WriterLock.acquire(lilo.config.dbPath, "bot", new Date());
  } catch (err) {
    process.stderr.write(`${describeError(err)}\n`);
    await lilo.close();
    return 1;
  }
  const log = openLogFile(lilo.config.dataDir, lilo.config.run.logMaxMb * 1024 * 1024);
  sink.write = (line) => {
    process.stderr.write(line);
    log.write(line);
  };
  try {
    return await serve(lilo, logger, { sink, log }, metrics);
  } finally {
    lock.release();
    // The last lines (stopping, stopped) reach the file before the process exits.
    sink.write = (line) => void process.stderr.write(line);
    await log.close();
  }
}

/** Stdin and stdout when both are a terminal: then `npm start` may ask the setup's questions. */
function attachedTerminal(): SetupStreams | undefined {
  return process.stdin.isTTY && process.stdout.isTTY ? { input: process.stdin, output: process.stdout } : undefined;
}

/**
 * The first start: with a terminal the setup asks its questions and writes
 * `.env` (true: go on); without one the steps are printed (false: exit 1).
 */
async function firstRunSetup(config: LiloConfig, terminal: SetupStreams | undefined): Promise<boolean> {
  if (!terminal) {
    process.stderr.write(`${setupSteps(config.run.envFile)}\n`);
    return false;
  }
  const { interactiveSetup } = await import("./admin-cli/setup/run-setup.ts");
  const written = await interactiveSetup(terminal, {
    envFile: config.run.envFile,
    env: process.env,
    catalogue: LOCAL_MODEL_CATALOGUE,
    folders: { embedding: config.embedding.localDir, local: config.local.dir },
  });
  return written !== undefined;
}

/** What to do when Lilo is not set up and no terminal can answer questions. */
function setupSteps(envFile: string): string {
  return [
    "Lilo is not set up yet. Run `npm start` (or `npx lilo setup`) in a terminal: it asks for your language, your name,",
    "the model (an Anthropic/OpenAI/DeepSeek key, a server of your own or Lilo's own model), Telegram/Matrix and the time zone, and writes",
    `${envFile}. Without a terminal: ${SCRIPTED_EXAMPLE}`,
    "",
    NO_MODEL_HELP,
  ].join("\n");
}

/** Warms up, finishes what a crash left open, starts adapters and jobs, and runs until a signal. */
async function serve(lilo: Lilo, logger: Logger, out: { sink: { write: (line: string) => void }; log: LogFile }, metrics?: PromMetrics): Promise<number> {
  const spec = lilo.models.chatSpec();
  logger.info(`Lilo starts with ${spec.provider}:${spec.model}, data in ${lilo.config.dbPath}`);
  // Once per start of the bot, not on every `lilo` command: a plain database keeps working, the owner is told how to lock it.
  if (lilo.config.dbPath !== ":memory:" && !isEncryptedFile(lilo.config.dbPath))
    logger.warn("the database is not encrypted: set LILO_DATA_KEY (`lilo setup` makes one) and run `lilo encrypt --apply`", { path: lilo.config.dbPath });
  logger.info(`loading the embedding model ${lilo.config.embedding.model} (downloaded once on the first start)`);
  try {
    await lilo.warmUp();
  } catch (err) {
    process.stderr.write(`${describeError(err)}\n`);
    await lilo.close();
    return 1;
  }
  // Once, at start: whether audio in another format than OGG/Opus can be converted for voice replies.
  await lilo.voice.check();
  // After-reply work (extraction, checks) that a crash interrupted runs again.
  const resumed = lilo.inbox.resumeJobs();
  if (resumed) logger.info("resuming after-reply jobs left by the last run", { count: resumed });
  // A reindex a crash interrupted, or rows written while the embedding model was missing, are embedded in the
  // background once the model is there; meanwhile search falls back to what it has (keywords).
  const reindexing = resumeReindex(lilo, logger);
  // Memories from imported chats that a kill or a spent budget left half read go on in the background.
  const importing = resumeHistoryExtraction(lilo, logger);
  const adapters = await startConfiguredAdapters(lilo, logger);
  // Lilo's pages (LILO_WEB_PORT), stopped with the adapters.
  const pages = await startBotPages(lilo, logger);
  // This process has the chat connections: it delivers the pushes every process (jobs, the CLI) writes to the outbox.
  if (adapters.length > 0) lilo.push.startDelivery(lilo.config.push.outboxPollMs);
  // Reminders ring from here too, once the transports are registered: what came due while Lilo was down goes first.
  if (adapters.length > 0) lilo.reminders.startScheduler();
  // Diary, reflection and greetings run in this process, after the adapters (their pushes need the transports).
  let jobs: RunningJobs | undefined;
  try {
    jobs = startJobs(lilo, logger);
  } catch (err) {
    process.stderr.write(`${describeError(err)}\n`);
    for (const a of adapters) await a.stop();
    await pages?.close();
    await reindexing.stop();
    await importing.stop();
    await lilo.close();
    return 1;
  }
  // LILO_HEALTH_PORT: /healthz and /metrics once everything runs; 503 from the first stop signal until the exit.
  let health: HealthServer | undefined;
  if (metrics) {
    const { healthHost: host, healthPort: port } = lilo.config.run;
    // A port taken by another program costs the numbers, not the chat: said loudly, and Lilo runs on.
    health = await startHealthServer(lilo, logger, { host, port, metrics, adapters: adapters.map((a) => a.name) }).catch((err: unknown) => {
      logger.error("the health and metrics server did not start", { host, port, error: describeError(err) });
      return undefined;
    });
  }
  // Everything runs: the index's background work (saved graphs, residual copies; searches scan exactly until then) may begin.
  lilo.started();
  // Every part that takes work stops taking it at once; what is running gets the grace time (adapters/service/shutdown.ts).
  const stopAll = async (running: RunningAdapter[]) => {
    health?.stopping();
    await stopGracefully({
      lilo,
      logger,
      graceMs: lilo.config.run.shutdownGraceS * 1000,
      stopIntake: () => [jobs?.stop(), ...running.map((a) => a.stop()), pages?.close(), reindexing.stop(), importing.stop()],
    });
    await health?.close();
  };
  if (adapters.length === 0) {
    // Ctrl-C ends the chat the same way as /quit, so background work (extraction) finishes and the database closes.
    const quit = new AbortController();
    const onSignal = () => {
      logger.info("stopping (press Ctrl-C again to quit at once)");
      quit.abort();
    };
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    // Log lines would land in the middle of the conversation: they go to the file only, named once at the start.
    const { sink, log } = out;
    const both = sink.write;
    sink.write = log.write;
    try {
      await runTerminal(lilo, {
        input: process.stdin,
        output: process.stdout,
        userId: lilo.config.terminal.userId,
        prompt: process.stdin.isTTY,
        signal: quit.signal,
        logFile: log.path,
      });
      await stopAll(adapters);
    } finally {
      sink.write = both;
    }
    return 0;
  }
  const signal = await firstStopSignal(logger);
  logger.info("stopping (a second signal exits at once)", { signal, graceSeconds: lilo.config.run.shutdownGraceS });
  await stopAll(adapters);
  logger.info("stopped");
  return 0;
}

/**
 * Continues an interrupted `lilo reindex` in the background, or the one
 * that embeds what was stored while the embedding model was missing, after
 * waiting for the model (tried again on a doubling wait); `stop()` ends it
 * between batches (it stays resumable) and waits, before the database closes.
 */
function resumeReindex(lilo: Lilo, logger: Logger): { stop(): Promise<void> } {
  const abort = new AbortController();
  const pending = lilo.maintenance.pendingReindex();
  const run = (async () => {
    if (!(await lilo.maintenance.whenEmbedderReady(abort.signal))) return undefined;
    if (pending) logger.info("finishing an interrupted reindex in the background", { model: pending.embedderId, done: pending.done });
    return lilo.maintenance.resumeReindex(abort.signal);
  })().then(
    (outcome) => {
      if (outcome?.finished && pending) logger.info("interrupted reindex finished", { memories: outcome.done });
    },
    (err: unknown) => {
      // Another live process (a `lilo reindex --apply`) runs it: it finishes there.
      if (err instanceof LiloError && err.code === "locked") logger.info(describeError(err));
      else logger.error("could not finish the interrupted reindex; run `lilo reindex --apply`", { error: describeError(err) });
    },
  );
  return {
    stop: async () => {
      abort.abort();
      await run;
    },
  };
}

/**
 * Continues the extraction of imported chats (`lilo import-history`) that a
 * kill or a spent budget left unfinished; `stop()` ends it between pieces
 * (it stays resumable) and waits, before the database closes.
 */
function resumeHistoryExtraction(lilo: Lilo, logger: Logger): { stop(): Promise<void> } {
  const abort = new AbortController();
  const pending = lilo.history.extracting();
  if (pending.length) logger.info("continuing the memories of imported chats in the background", { imports: pending.map((p) => p.importId) });
  const run = (pending.length ? lilo.history.extract({ signal: abort.signal }) : Promise.resolve(undefined)).then(
    (outcome) => {
      if (outcome?.paused) logger.info(`imported chats wait for their memories: ${outcome.paused}`);
      else if (outcome?.finished.length) logger.info("memories of imported chats done", { imports: outcome.finished });
    },
    (err: unknown) =>
      logger.error("could not finish the memories of an imported chat; `lilo import-history extract` tries again", { error: describeError(err) }),
  );
  return {
    stop: async () => {
      abort.abort();
      await run;
    },
  };
}
