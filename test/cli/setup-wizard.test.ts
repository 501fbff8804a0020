import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { interactiveSetup, type SetupPlace } from "../../admin-cli/setup/run-setup.ts";
import { LOCAL_MODEL_CATALOGUE } from "../../admin-cli/commands/setup.ts";
import { LOCAL_MODELS } from "../../core/internal.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.ts";
import { startFakeTelegram, type FakeTelegram } from "../fakes/fake-telegram.ts";
import { startFakeServer } from "../fakes/http-server.ts";

/**
 * The setup's questions through its real Asker on streams: what a user
 * typing in a terminal sees and answers, without a terminal of its own.
 */
function wizard(place: SetupPlace) {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = "";
  let seen = 0;
  output.on("data", (c) => (screen += String(c)));
  const done = interactiveSetup({ input, output }, place);
  done.catch(() => undefined); // a failing setup is reported by the test's own expectation
  return {
    done,
    screen: () => screen,
    /** Waits until `text` appears after what was matched before, then types `answer` and Enter. */
    async when(text: string, answer?: string) {
      await expect
        .poll(() => screen.indexOf(text, seen), { timeout: 10_000, interval: 20, message: `waiting for "${text}" after:\n${screen.slice(seen)}` })
        .toBeGreaterThanOrEqual(0);
      seen = screen.indexOf(text, seen) + text.length;
      if (answer !== undefined) input.write(`${answer}\n`);
    },
  };
}

describe("the setup's questions", () => {
  let home: string;
  let models: string;
  let llm: FakeOpenAI;
  let single: FakeOpenAI;
  let tg: FakeTelegram;
  const place = (extra: Partial<SetupPlace> = {}): SetupPlace => ({
    envFile: join(home, ".env"),
    env: { LANG: "C", TELEGRAM_API_ROOT: tg.url },
    catalogue: LOCAL_MODEL_CATALOGUE,
    folders: { embedding: models, local: models },
    telegramWaitMs: 200,
    ...extra,
  });
  /** The English embedding model is in place, so only what a test is about is missing. */
  const embeddingPresent = () => {
    mkdirSync(join(models, "Xenova", "all-MiniLM-L6-v2", "onnx"), { recursive: true });
    writeFileSync(join(models, "Xenova", "all-MiniLM-L6-v2", "onnx", "model_quantized.onnx"), "");
  };

  beforeAll(async () => {
    llm = await startFakeOpenAI({ models: ["llama3.1:8b", "qwen2.5"] });
    single = await startFakeOpenAI({ models: ["qwen2.5"] });
    tg = await startFakeTelegram({ maxHoldMs: 100 });
  });
  afterAll(async () => {
    await llm.close();
    await single.close();
    await tg.close();
  });
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "lilo-wizard-"));
    models = join(home, "data", "models");
    return () => rmSync(home, { recursive: true, force: true });
  });

  it("skips Telegram and Matrix on an empty answer after a wrong token, writing neither", async () => {
    embeddingPresent();
    const w = wizard(place());
    await w.when("→ [2]: ", "2");
    await w.when("What should Lilo call you", "Sam");
    await w.when("→ [1]: ", "4");
    await w.when("Server address", single.baseURL);
    await w.when("The server offers 1 model:");
    await w.when("→ [1]: ", "");
    await w.when("Connect Telegram? (y/n) [n]: ", "y");
    await w.when("(not shown; Enter: skip): ", "wrong-token");
    await w.when("✗ Telegram refused the token");
    await w.when("(not shown; Enter: skip): ", "");
    await w.when("Telegram skipped");
    await w.when("Connect Matrix? (y/n) [n]: ", "y");
    await w.when("Homeserver address (e.g. https://matrix.example.org; Enter: skip): ", "http://127.0.0.1:1");
    await w.when("access token (not shown; Enter: skip): ", "syt_wrong");
    await w.when("✗ http://127.0.0.1:1 cannot be reached");
    await w.when("(not shown; Enter: skip): ", "");
    await w.when("Matrix skipped");
    await w.when("Time zone [", "Europe/Berlin");
    expect(await w.done).toBe(join(home, ".env"));
    const env = readFileSync(join(home, ".env"), "utf8");
    expect(env).toContain("LILO_CHAT_MODEL=openai:qwen2.5");
    expect(env).not.toMatch(/TELEGRAM|MATRIX/);
    expect(w.screen()).not.toContain("1 models");
  });

  it("waits for the first Telegram message only as long as the user wants, then skips Telegram", async () => {
    embeddingPresent();
    const w = wizard(place());
    await w.when("→ [2]: ", "2");
    await w.when("What should Lilo call you", "Sam");
    await w.when("→ [1]: ", "4");
    await w.when("Server address", llm.baseURL);
    await w.when("The server offers 2 models:", "");
    await w.when("Connect Telegram? (y/n) [n]: ", "y");
    await w.when("(not shown; Enter: skip): ", tg.token);
    await w.when("No message arrived.");
    await w.when("Wait once more? (n: skip Telegram) (y/n) [y]: ", "n");
    await w.when("Telegram skipped");
    await w.when("Connect Matrix? (y/n) [n]: ", "");
    await w.when("Time zone [", "Europe/Berlin");
    await w.done;
    expect(readFileSync(join(home, ".env"), "utf8")).not.toContain("TELEGRAM");
  });

  it("names the address and the reason when an own server does not answer, not the client's vendor", async () => {
    embeddingPresent();
    const closed = await startFakeServer((_req, res) => void res.end());
    await closed.close();
    const w = wizard(place());
    await w.when("→ [2]: ", "2");
    await w.when("What should Lilo call you", "Sam");
    await w.when("→ [1]: ", "4");
    await w.when("Server address", `${closed.url}/v1`);
    await w.when(`✗ ${closed.url}/v1 does not answer: `);
    const line = w.screen().slice(w.screen().indexOf("✗")).split("\n")[0]!;
    expect(line).toMatch(/refused|connect/i);
    expect(line).not.toMatch(/openai/i);
    await w.when("Server address", llm.baseURL);
    await w.when("→ [1]: ", "");
    await w.when("Connect Telegram? (y/n) [n]: ", "");
    await w.when("Connect Matrix? (y/n) [n]: ", "");
    await w.when("Time zone [", "UTC");
    await w.done;
  });

  it("suggests the current language, name, model and time zone on a re-run", async () => {
    embeddingPresent();
    const before = [
      "LILO_LANGUAGE=en",
      "LILO_USER_NAMES=owner=Sam",
      "LILO_TIMEZONE=Europe/Berlin",
      `OPENAI_BASE_URL=${llm.baseURL}`,
      "LILO_CHAT_MODEL=openai:qwen2.5",
      `LILO_DATA_KEY=${"0f".repeat(32)}`,
      "",
    ].join("\n");
    writeFileSync(join(home, ".env"), before);
    const w = wizard(place({ env: { LANG: "de_DE.UTF-8", TELEGRAM_API_ROOT: tg.url } }));
    await w.when("Sprache / Language");
    await w.when("→ [2]: ", "");
    await w.when("What should Lilo call you [Sam]: ", "");
    await w.when("→ [4]: ", "");
    await w.when(`Server address (OpenAI-compatible, e.g. Ollama) [${llm.baseURL}]: `, "");
    await w.when("The server offers 2 models:");
    await w.when("→ [2]: ", "");
    await w.when("Connect Telegram? (y/n) [n]: ", "");
    await w.when("Connect Matrix? (y/n) [n]: ", "");
    await w.when("Time zone [Europe/Berlin]: ", "");
    await w.when("Go on? (y/n) [n]: ", "y");
    await w.done;
    expect(readFileSync(join(home, ".env"), "utf8")).toBe(before);
  });

  it("names the downloads the choice needs before writing anything, and writes the offline way when the user copies them", async () => {
    const w = wizard(place());
    await w.when("→ [2]: ", "2");
    await w.when("What should Lilo call you", "Sam");
    await w.when("→ [1]: ", "5");
    await w.when("Lilo's own local model (runs on this computer)");
    await w.when("→ [1]: ", "2");
    await w.when("Connect Telegram? (y/n) [n]: ", "");
    await w.when("Connect Matrix? (y/n) [n]: ", "");
    await w.when("Time zone [", "UTC");
    const own = LOCAL_MODELS[1]!;
    await w.when("For the first answer Lilo needs these files, which are not there yet:");
    await w.when(`the embedding model Xenova/all-MiniLM-L6-v2 (≈ 25 MB) in the folder ${join(models, "Xenova", "all-MiniLM-L6-v2")}`);
    await w.when(`Lilo's own model ${own.name} (2.0 GB) as ${join(models, own.file)}`);
    await w.when("How do they get there?");
    expect(readFileSync.bind(null, join(home, ".env"))).toThrow(); // nothing written yet
    await w.when("→ [1]: ", "2");
    await w.when(`Copy ${own.file} (from ${own.url}) into the folder ${models}.`);
    await w.when("LILO_EMBEDDING_OFFLINE=true, LILO_LOCAL_OFFLINE=true goes into .env");
    await w.done;
    const env = readFileSync(join(home, ".env"), "utf8");
    expect(env).toContain(`LILO_CHAT_MODEL=local:${own.name}`);
    expect(env).toContain("LILO_EMBEDDING_OFFLINE=true");
    expect(env).toContain("LILO_LOCAL_OFFLINE=true");
  });
});
