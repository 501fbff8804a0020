import dotenv from "dotenv";
import { ConfigError, consoleLogger, createLilo, loadConfig, requireModel, describeError } from "./core/index.ts";
import { runTerminal } from "./adapters/terminal/terminal.ts";

/**
 * `npm start`: one process for every configured adapter (and, later, the
 * scheduled jobs). Without Telegram or Matrix it opens a terminal chat.
 */
async function main(): Promise<number> {
  dotenv.config({ quiet: true });
  const logger = consoleLogger((process.env.LILO_LOG_LEVEL as "debug" | "info" | "warn" | "error" | undefined) ?? "info");
  let config;
  try {
    config = loadConfig(process.env);
    requireModel(config, "chat");
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const lilo = createLilo(config, { logger });
  const stop = async () => {
    await lilo.close();
  };
  process.once("SIGTERM", () => void stop().then(() => process.exit(0)));
  const spec = lilo.models.chatSpec();
  logger.info(`Lilo starts with ${spec.provider}:${spec.model}, data in ${config.dbPath}`);
  await runTerminal(lilo, { input: process.stdin, output: process.stdout, userId: config.terminal.userId, prompt: process.stdin.isTTY });
  await stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`Lilo stopped: ${describeError(err)}\n`);
    process.exit(1);
  },
);
