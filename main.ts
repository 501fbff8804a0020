import dotenv from "dotenv";
import { ConfigError, consoleLogger, createLilo, loadConfig, requireModel, describeError, type Lilo } from "./core/index.ts";
import { runTerminal } from "./adapters/terminal/terminal.ts";
import { startConfiguredAdapters, type RunningAdapter } from "./adapters/index.ts";
import { startJobs, type RunningJobs } from "./jobs/scheduler.ts";

/**
 * `npm start`: one process for every configured adapter and the scheduled
 * jobs. Without Telegram or Matrix it opens a terminal chat instead.
 */
async function main(): Promise<number> {
  dotenv.config({ quiet: true, path: process.env.LILO_ENV_FILE ?? ".env" });
  const logger = consoleLogger((process.env.LILO_LOG_LEVEL as "debug" | "info" | "warn" | "error" | undefined) ?? "info");
  let lilo: Lilo;
  try {
    const config = loadConfig(process.env);
    requireModel(config, "chat");
    lilo = createLilo(config, { logger });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const spec = lilo.models.chatSpec();
  logger.info(`Lilo starts with ${spec.provider}:${spec.model}, data in ${lilo.config.dbPath}`);
  logger.info(`loading the embedding model ${lilo.config.embedding.model} (downloaded once on the first start)`);
  try {
    await lilo.warmUp();
  } catch (err) {
    process.stderr.write(`${describeError(err)}\n`);
    await lilo.close();
    return 1;
  }
  const adapters = await startConfiguredAdapters(lilo, logger);
  // Diary and reflection run in this process, after the adapters (their pushes need the transports).
  let jobs: RunningJobs | undefined;
  try {
    jobs = startJobs(lilo, logger);
  } catch (err) {
    process.stderr.write(`${describeError(err)}\n`);
    for (const a of adapters) await a.stop();
    await lilo.close();
    return 1;
  }
  const stopAll = async (running: RunningAdapter[]) => {
    await jobs?.stop();
    for (const a of running) await a.stop();
    await lilo.close();
  };
  if (adapters.length === 0) {
    await runTerminal(lilo, { input: process.stdin, output: process.stdout, userId: lilo.config.terminal.userId, prompt: process.stdin.isTTY });
    await stopAll(adapters);
    return 0;
  }
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  logger.info("stopping");
  await stopAll(adapters);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`Lilo stopped: ${describeError(err)}\n`);
    process.exit(1);
  },
);
