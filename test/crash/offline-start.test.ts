import { afterEach, describe, expect, it } from "vitest";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3-multiple-ciphers";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.ts";
import { startFakeTelegram, type FakeTelegram } from "../fakes/fake-telegram.ts";
import { createTinyModel } from "../fixtures/tiny-model.ts";
import { isExtraction, NO_EXTRACTION } from "../helpers/test-lilo.ts";
import { until } from "./world.ts";
import { entryScript } from "../helpers/entry.ts";

const run = promisify(execFile);
const CHRIS = 111;
const MODEL = "test/tiny-bert";

/**
 * `npm start` on a machine where the embedding model is nowhere: no file in
 * its folder and downloads switched off. The real bot process, fake Telegram
 * and a fake OpenAI-compatible server; the model's files are copied in while
 * the bot runs.
 */
describe("npm start without the embedding model", () => {
  let tg: FakeTelegram | undefined;
  let llm: FakeOpenAI | undefined;
  let bot: ChildProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), "lilo-offline-"));
  const models = join(dir, "models");
  afterEach(async () => {
    bot?.kill("SIGKILL");
    await tg?.close();
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = (): Record<string, string> => ({
    PATH: process.env.PATH ?? "",
    HOME: dir,
    LILO_HOME: dir,
    LILO_DATA_DIR: dir,
    LILO_LOG_LEVEL: "info",
    OPENAI_BASE_URL: llm!.baseURL,
    LILO_CHAT_MODEL: "openai:llama-test",
    LILO_MODEL_MAX_RETRIES: "0",
    TELEGRAM_BOT_TOKEN: tg!.token,
    TELEGRAM_API_ROOT: tg!.url,
    TELEGRAM_ALLOWED_USERS: `${CHRIS}=chris`,
    LILO_USER_NAMES: "chris=Christian",
    LILO_DIARY_ENABLED: "false",
    LILO_REFLECTION_ENABLED: "false",
    LILO_EMBEDDING_MODEL: MODEL,
    LILO_EMBEDDING_MODEL_DIR: models,
    LILO_EMBEDDING_OFFLINE: "true",
    // Short, so the copied model is noticed within a few seconds.
    LILO_EMBEDDING_RETRY_SECONDS: "0.3",
  });
  /** The real `lilo status`, as a user runs it while the bot runs. */
  const status = async (json = false) => (await run(process.execPath, ["admin-cli/bin.js", "status", ...(json ? ["--json"] : [])], { env: env() })).stdout;
  const count = (sql: string) => {
    const db = new Database(join(dir, "lilo.db"), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare(sql).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it("answers by words alone, says so once in the log and in lilo status, and embeds what it stored once the model is copied in", async () => {
    tg = await startFakeTelegram({ maxHoldMs: 200 });
    llm = await startFakeOpenAI({ models: ["llama-test"] });
    llm.replyAlways((body) => {
      const system = body.messages.find((m) => m.role === "system")?.content;
      if (!isExtraction(system)) return "Schön, Tee also.";
      const said = String(body.messages.at(-1)?.content ?? "");
      return said.includes("Tee") ? JSON.stringify({ facts: [], content: ["Christian trinkt gern Tee"], profile: [], important: [] }) : NO_EXTRACTION;
    });
    let out = "";
    bot = spawn(process.execPath, [entryScript("main.ts")], { cwd: process.cwd(), env: env(), stdio: ["ignore", "pipe", "pipe"] });
    bot.stdout!.on("data", (c) => (out += String(c)));
    bot.stderr!.on("data", (c) => (out += String(c)));
    const exited = new Promise<number | null>((resolve) => bot!.on("close", resolve));
    await until(
      () => /telegram adapter running/.test(out) || bot!.exitCode !== null,
      45_000,
      () => out,
    );
    expect(bot.exitCode, out).toBeNull();
    const wordsOnly = `recall by words only: embedding model ${MODEL} not available — its files are not in the folder and downloads are switched off (LILO_EMBEDDING_OFFLINE=true); copy it to ${models}/${MODEL}`;
    expect(out).toContain(wordsOnly);

    tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Ich trinke gerne Tee" });
    await tg.waitFor((calls) => calls.find((c) => c.method === "sendMessage" && String(c.params.text).includes("Tee also")), 20_000);
    await until(
      () => count("SELECT count(*) AS n FROM notes") === 1,
      20_000,
      () => out,
    );
    // Said once, not once per message.
    expect(out.split(wordsOnly)).toHaveLength(2);
    expect(await status()).toContain(wordsOnly);
    expect(count("SELECT count(*) AS n FROM message_vectors")).toBe(0);

    await createTinyModel(models, MODEL);
    await until(
      () => /recall by words and meaning \(test\/tiny-bert\)/.test(out),
      30_000,
      () => out,
    );
    expect(out).toContain(`embedding model ${MODEL} loaded: recall by words and meaning again; embedding what was stored without it in the background`);
    // The note and both messages of the exchange have their vectors, without a restart.
    expect(count("SELECT count(*) AS n FROM memory_vectors WHERE store = 'notes'")).toBe(1);
    expect(count("SELECT count(*) AS n FROM memory_vectors WHERE store = 'messages'")).toBe(2);
    expect(count("SELECT count(*) AS n FROM message_vectors")).toBe(2);
    expect(JSON.parse(await status(true))).toContainEqual(
      expect.objectContaining({ name: "recall", mode: "full", model: MODEL, line: `recall by words and meaning: embedding model ${MODEL}` }),
    );

    bot.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 120_000);
});
