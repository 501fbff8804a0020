import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTerminal } from "../../adapters/terminal/terminal.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo } from "../helpers/test-lilo.ts";

describe("terminal chat", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((b) => (isExtraction(b.system) ? '{"facts":[]}' : "Hallo zurück!"));
    t = makeTestLilo({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "anthropic:claude-test" });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("goes through the same core path as the bots", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (c) => (printed += String(c)));
    const done = runTerminal(t.lilo, { input, output, userId: "owner" });
    input.write("Hallo Lilo\n");
    input.write("/model\n");
    input.write("/diary\n");
    input.end("/quit\n");
    await done;
    await t.lilo.idle();
    expect(printed).toContain("Lilo: Hallo zurück!");
    expect(printed).toContain("Chat model: anthropic:claude-test");
    expect(printed).toContain("📔 Hallo zurück!");
    expect(t.lilo.diary.list("owner").map((e) => e.text)).toEqual(["Hallo zurück!"]);
    expect(fake.requests.find((r) => !isExtraction(r.system))!.messages.at(-1)).toEqual({ role: "user", content: "Hallo Lilo" });
    expect(t.lilo.db.prepare("SELECT role, text FROM messages WHERE user_id = 'owner' ORDER BY id").all()).toEqual([
      { role: "user", text: "Hallo Lilo" },
      { role: "assistant", text: "Hallo zurück!" },
    ]);
  });
});

describe("npm start", () => {
  it("prints which variables to set and exits non-zero when no model is configured", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-start-"));
    const env = { PATH: process.env.PATH ?? "", HOME: dir, LILO_ENV_FILE: join(dir, "none.env"), LILO_DATA_DIR: dir };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", "main.ts"], { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "pipe"] });
      let err = "";
      child.stderr.on("data", (c) => (err += String(c)));
      child.on("close", (c) => resolve({ code: c, stderr: err }));
    });
    expect(code).toBe(1);
    expect(stderr).toContain("ANTHROPIC_API_KEY");
    expect(stderr).toContain("DEEPSEEK_API_KEY");
    expect(stderr).toContain("OPENAI_BASE_URL");
  });

  it("names a wrong variable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-start-"));
    const env = { PATH: process.env.PATH ?? "", HOME: dir, LILO_ENV_FILE: join(dir, "none.env"), LILO_DATA_DIR: dir, ANTHROPIC_API_KEY: "k", LILO_TIMEZONE: "Mars/Olympus" };
    const stderr = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", "main.ts"], { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "pipe"] });
      let err = "";
      child.stderr.on("data", (c) => (err += String(c)));
      child.on("close", () => resolve(err));
    });
    expect(stderr).toContain("LILO_TIMEZONE");
  });
});
