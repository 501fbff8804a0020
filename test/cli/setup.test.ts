import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTinyModel } from "../fixtures/tiny-model.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.ts";
import { startFakeTelegram, type FakeTelegram } from "../fakes/fake-telegram.ts";
import { entryScript } from "../helpers/entry.ts";

const run = promisify(execFile);
const USER = 4242;

/**
 * A new user's first run, as the README tells it: `npm start` in a real
 * pseudo-terminal (util-linux `script`) finds nothing configured, asks the
 * setup's questions against a fake OpenAI-compatible server and a fake
 * Telegram Bot API, writes `.env`, and starts chatting; `lilo setup --yes`
 * writes the same file.
 */
describe("first run: npm start asks the setup's questions, then chats", () => {
  let home: string;
  let llm: FakeOpenAI;
  let tg: FakeTelegram;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "lilo-setup-"));
    await createTinyModel(join(home, "data", "models"), "test/tiny-bert", { dim: 16 });
    llm = await startFakeOpenAI({ models: ["llama3.1:8b", "qwen2.5"] });
    llm.replyAlways((b) => (JSON.stringify(b.messages).includes("Hallo Lilo") && !JSON.stringify(b.messages).includes('"json') ? "Hi Sam, schön!" : "{}"));
    tg = await startFakeTelegram({ maxHoldMs: 200 });
  }, 60_000);
  afterAll(async () => {
    if (child?.pid) process.kill(-child.pid, "SIGKILL");
    await llm.close();
    await tg.close();
    rmSync(home, { recursive: true, force: true });
  });

  const env = (dir: string) => ({
    PATH: process.env.PATH ?? "",
    HOME: dir,
    LANG: "C",
    TERM: "dumb",
    LILO_HOME: dir,
    TELEGRAM_API_ROOT: tg.url,
    LILO_EMBEDDING_MODEL: "test/tiny-bert",
    LILO_EMBEDDING_OFFLINE: "true",
    LILO_DIARY_ENABLED: "false",
    LILO_REFLECTION_ENABLED: "false",
    LILO_GREETING_ENABLED: "false",
  });

  it("in a pseudo-terminal: each answer checked on the spot, keys never echoed, .env 0600, then the bot answers on Telegram", async () => {
    const node = `${process.execPath} --import tsx ${join(process.cwd(), "main.ts")}`;
    child = spawn("script", ["-q", "-e", "-c", node, "/dev/null"], { cwd: process.cwd(), env: env(home), stdio: ["pipe", "pipe", "pipe"], detached: true });
    let screen = "";
    let seen = 0;
    child.stdout!.on("data", (c) => (screen += String(c)));
    child.stderr!.on("data", (c) => (screen += String(c)));
    /** Waits until `text` appears after what was matched before, then types `answer` and Enter. */
    const when = async (text: string, answer?: string) => {
      await expect
        .poll(() => screen.indexOf(text, seen), { timeout: 30_000, interval: 50, message: `waiting for "${text}" after:\n${screen.slice(seen)}` })
        .toBeGreaterThanOrEqual(0);
      seen = screen.indexOf(text, seen) + text.length;
      if (answer !== undefined) child!.stdin!.write(`${answer}\r`);
    };
    await when("Sprache / Language");
    await when("→ [2]: ", "2");
    await when("What should Lilo call you", "Sam");
    await when("Which language model should Lilo use?");
    await when("A server of your own");
    await when("→ [1]: ", "4");
    await when("Server address (OpenAI-compatible, e.g. Ollama) [http://127.0.0.1:11434/v1]: ", "not a url");
    await when("✗");
    await when("Server address", llm.baseURL);
    await when("The server offers 2 models:");
    await when("→ [1]: ", "qwen2.5");
    await when("Connect Telegram? (y/n) [n]: ", "y");
    await when("Your bot's token from @BotFather (not shown; Enter: skip): ", "wrong-token");
    await when("✗ Telegram refused the token");
    await when("(not shown; Enter: skip): ", tg.token);
    await when("Found the bot @lilo_test_bot");
    await when("Now send your bot @lilo_test_bot a message");
    tg.pushMessage({ fromId: USER, chatId: USER, text: "hi" });
    await when(`Telegram id ${USER}`);
    await when("Connect Matrix? (y/n) [n]: ", "");
    await when("Time zone [", "Mars/Olympus");
    await when("✗ not a known IANA time zone");
    await when("Time zone [", "Europe/Berlin");
    await when(`Saved in ${join(home, ".env")}`);
    expect(screen).not.toContain(tg.token);
    expect(screen).not.toContain("wrong-token");

    const file = join(home, ".env");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file, "utf8");
    // A new install gets a random data key, once; the screen says where it is and that losing it loses the memory.
    expect(written).toMatch(/\nLILO_DATA_KEY=[0-9a-f]{64}\n$/);
    expect(screen).toContain(`LILO_DATA_KEY in ${file}`);
    expect(screen).toContain("loses it loses the memory");
    expect(written.replace(/LILO_DATA_KEY=.*\n/, "")).toBe(
      [
        "LILO_LANGUAGE=en",
        "LILO_USER_NAMES=owner=Sam",
        "LILO_TIMEZONE=Europe/Berlin",
        `OPENAI_BASE_URL=${llm.baseURL}`,
        "LILO_CHAT_MODEL=openai:qwen2.5",
        `TELEGRAM_BOT_TOKEN=${tg.token}`,
        `TELEGRAM_ALLOWED_USERS=${USER}=owner`,
        "",
      ].join("\n"),
    );
    // The same process goes on: the bot starts and answers the user it just learned (the setup's "hi" was confirmed, not answered).
    tg.pushMessage({ fromId: USER, chatId: USER, text: "Hallo Lilo" });
    const sent = await tg.waitFor((calls) => calls.find((c) => c.method === "sendMessage"), 60_000);
    expect(String(sent.params.text)).toContain("Hi Sam, schön!");
    expect(tg.sent.filter((c) => c.method === "sendMessage")).toHaveLength(1);
  }, 120_000);

  it("without a terminal, npm start names every way to a model and exits with status 1", async () => {
    const other = mkdtempSync(join(tmpdir(), "lilo-setup-"));
    try {
      const r = await run(process.execPath, [entryScript("main.ts")], { cwd: process.cwd(), env: env(other) }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(r).toMatchObject({ code: 1 });
      const said = (r as { stderr: string }).stderr;
      for (const way of ["ANTHROPIC_API_KEY=", "OPENAI_API_KEY=", "DEEPSEEK_API_KEY=", "OPENAI_BASE_URL=", "LILO_CHAT_MODEL=local", "LILO_LOCAL_OFFLINE=true"])
        expect(said).toContain(way);
      expect(said).toContain("--model local --yes");
      expect(said).toContain("npx lilo setup");
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it("lilo setup --yes writes the same .env, mode 0600, with the token from the environment", async () => {
    const other = mkdtempSync(join(tmpdir(), "lilo-setup-"));
    try {
      const args = ["setup", "--language", "en", "--name", "Sam", "--model", "openai:qwen2.5", "--base-url", llm.baseURL];
      const scripted = { ...env(other), TELEGRAM_BOT_TOKEN: tg.token, TZ: "Europe/Berlin" };
      const bin = join(process.cwd(), "admin-cli", "bin.js");
      // A model the server does not offer is refused, and nothing is written.
      const refused = await run(process.execPath, [bin, ...args.slice(0, 6), "openai:bogus", ...args.slice(7), "--yes"], { cwd: other, env: scripted }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('the provider does not offer "bogus"') });
      const out = await run(process.execPath, [bin, ...args, "--telegram-user", String(USER), "--yes"], { cwd: other, env: scripted });
      expect(out.stdout).toContain(`wrote ${join(other, ".env")}`);
      // The same answers, and a data key of its own.
      const noKey = (dir: string) => readFileSync(join(dir, ".env"), "utf8").replace(/LILO_DATA_KEY=.*\n/, "");
      expect(noKey(other)).toBe(noKey(home));
      expect(readFileSync(join(other, ".env"), "utf8")).not.toBe(readFileSync(join(home, ".env"), "utf8"));
      expect(statSync(join(other, ".env")).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);
});
