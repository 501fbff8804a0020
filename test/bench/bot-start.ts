/**
 * The start a person waits for: the real bot process (app.ts through
 * test/crash/bot-entry.ts, bundled as the crash tests bundle it) spawned
 * over an install, against fake Telegram and Anthropic servers on
 * 127.0.0.1, timed from the spawn until it logs that its health server
 * listens: its last step, after the database is open, the vector index
 * loaded and the chat adapter running. (The log line, not a request to the
 * server: the index's background work begins at that moment, and a request
 * would time when the first piece of it lets the event loop go.) Each start
 * is stopped with SIGTERM before the next.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeTelegram, type FakeTelegram } from "../fakes/fake-telegram.ts";
import { entryScript } from "../helpers/entry.ts";
import { freePort } from "../helpers/free-port.ts";
import bundleEntries from "../setup/entries.ts";

/** What a bot start needs around it; `close` stops the fake servers. */
export interface BotStarts {
  /** Milliseconds from the spawn of a bot over `env` (its data folder, its key) until it says its health server listens. */
  start(env: Record<string, string>): Promise<number>;
  close(): Promise<void>;
}

/** The fake servers and the bundled bot; `hashDim`: the dimension of the hash embedder the install was filled with. */
export async function botStarts(hashDim: number): Promise<BotStarts> {
  await bundleEntries();
  const tg: FakeTelegram = await startFakeTelegram();
  const llm: FakeAnthropic = await startFakeAnthropic();
  llm.replyAlways(() => "Hallo");
  const port = await freePort();
  const base = {
    PATH: process.env.PATH ?? "",
    LILO_LOG_LEVEL: "info",
    ANTHROPIC_API_KEY: "sk-ant-bench",
    ANTHROPIC_BASE_URL: llm.baseURL,
    LILO_CHAT_MODEL: "anthropic:claude-test",
    TELEGRAM_BOT_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.url,
    TELEGRAM_ALLOWED_USERS: "111=bench",
    LILO_DIARY_ENABLED: "false",
    LILO_REFLECTION_ENABLED: "false",
    LILO_HEALTH_PORT: String(port),
    BOT_ENTRY_HASH_DIM: String(hashDim),
  };
  return {
    start: async (env) => {
      const t = performance.now();
      const child = spawn(process.execPath, [entryScript("test/crash/bot-entry.ts")], {
        env: { ...base, HOME: env.LILO_DATA_DIR!, ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      const exited = once(child, "exit");
      let err = "";
      try {
        return await new Promise<number>((resolve, reject) => {
          child.stderr.on("data", (b: Buffer) => {
            err = (err + b.toString()).slice(-4000);
            if (err.includes("health and metrics on")) resolve(performance.now() - t);
          });
          void exited.then(([code]) => reject(new Error(`the bot exited at start (${String(code)}):\n${err}`)));
        });
      } finally {
        child.kill("SIGTERM");
        await exited;
      }
    },
    close: async () => {
      await tg.close();
      await llm.close();
    },
  };
}
