import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import Database from "better-sqlite3-multiple-ciphers";
import { createTinyModel } from "../fixtures/tiny-model.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTerminal } from "../../adapters/terminal/terminal.ts";
import { typeIntoTerminal } from "./terminal-session.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { piecesOf } from "../fakes/sse.ts";
import { makeTestLilo, isExtraction, type TestLilo } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";
import { entryScript } from "../helpers/entry.ts";

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
    const printed = await typeIntoTerminal(t.lilo, ["Hallo Lilo", "/model", "/diary", "/quit"]);
    await t.lilo.idle();
    expect(printed).toContain("Lilo: Hallo zurück!");
    // The interface speaks the persona's language (German by default).
    expect(printed).toContain("Lilo hört zu.");
    expect(printed).toContain("Chat-Modell: anthropic:claude-test");
    expect(printed).toContain("📔 Hallo zurück!");
    expect(t.lilo.diary.list("owner").map((e) => e.text)).toEqual(["Hallo zurück!"]);
    expect(fake.requests.find((r) => !isExtraction(r.system))!.messages.at(-1)).toEqual({ role: "user", content: "Hallo Lilo" });
    expect(readDb(t.lilo).all("SELECT role, text FROM messages WHERE user_id = 'owner' ORDER BY id")).toEqual([
      { role: "user", text: "Hallo Lilo" },
      { role: "assistant", text: "Hallo zurück!" },
    ]);
  });

  it("prints the answer as it is written, in pieces, never a marker, ending the line on the final text", async () => {
    const answer = "Schön, dass du fragst. [IMPORTANT: Christian fragt gern nach] Mir geht es gut, danke!";
    fake.replyAlways((b) => (isExtraction(b.system) ? '{"facts":[]}' : { text: answer, stream: { pieces: piecesOf(answer, 3), paceMs: 3 } }));
    const input = new PassThrough();
    const output = new PassThrough();
    const writes: string[] = [];
    output.on("data", (c) => writes.push(String(c)));
    const done = runTerminal(t.lilo, { input, output, userId: "owner" });
    input.write("Wie geht es dir?\n");
    input.end("/quit\n");
    await done;
    expect(writes.join("")).toContain("Lilo: Schön, dass du fragst. Mir geht es gut, danke!\n");
    const start = writes.indexOf("Lilo: ");
    const answerWrites = writes.slice(start + 1, writes.findIndex((w, i) => i > start && w.endsWith("\n")) + 1);
    expect(answerWrites.length).toBeGreaterThan(3);
    for (const w of answerWrites) expect(w).not.toMatch(/\[|IMPORTANT/);
  });

  it("is a full client: every chat command of Telegram works, an unknown /word never reaches the model or the store", async () => {
    const note = await t.lilo.memory.add({ text: "Mag Kirschen", userId: "owner", store: "notes" });
    if (!note.added) throw new Error("the note was not added");
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (c) => (printed += String(c)));
    const done = runTerminal(t.lilo, { input, output, userId: "owner" });
    const calls = fake.requests.length;
    for (const line of [
      "/help",
      "/memory",
      "/push on",
      "/push",
      "/push test",
      "/bogus tell me",
      "/model bogus:x",
      `/forget ${note.id}`,
      "/forget 999",
      "/forget",
      "/push off",
    ]) {
      input.write(`${line}\n`);
    }
    input.end("/exit\n");
    await done;
    expect(printed).toContain("/memory – Notizen der letzten Antwort und die neuesten Notizen");
    expect(printed).toContain(`Neueste Notizen:\n#${note.id} Mag Kirschen`);
    expect(printed).toContain("Okay, meine Nachrichten kommen ab jetzt hier ins Terminal");
    expect(printed).toContain("Push ist hier an.");
    expect(printed).toContain("🔔 Lilo: 🔔 Testnachricht");
    expect(printed).toContain("Den Befehl /bogus kenne ich nicht. /help zeigt, was geht.");
    expect(printed).toContain("Den Anbieter „bogus“ gibt es nicht");
    expect(printed).toContain("🗑 Vergessen: „Mag Kirschen“");
    expect(printed).toContain("Diese Notiz gibt es nicht.");
    expect(printed).toContain("So geht's: /forget <Nummer>");
    expect(printed).toContain("Okay, ich schicke dir nichts mehr von mir aus.");
    expect(fake.requests.length).toBe(calls);
    expect(readDb(t.lilo).all("SELECT text FROM messages WHERE user_id = 'owner'")).toEqual([]);
    expect(t.lilo.memory.list("owner", { store: "notes" })).toEqual([]);
  });

  it("at a spent day budget holds messages back without a model call, says so once, then /budget and /retry answer", async () => {
    fake.replyAlways((b) => ({ text: isExtraction(b.system) ? '{"facts":[]}' : "Hallo zurück!", usage: { input_tokens: 90, output_tokens: 10 } }));
    const capped = makeTestLilo({
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: fake.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      LILO_BUDGET_DAY: "200 tokens",
    });
    try {
      const input = new PassThrough();
      const output = new PassThrough();
      let printed = "";
      output.on("data", (c) => (printed += String(c)));
      const done = runTerminal(capped.lilo, { input, output, userId: "owner" });
      const printedSoFar = async (text: string) => {
        for (let waited = 0; !printed.includes(text); waited += 20) {
          if (waited > 5_000) throw new Error(`never printed "${text}":\n${printed}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      input.write("Hallo\n");
      await printedSoFar("Lilo: Hallo zurück!");
      await capped.lilo.idle(); // the extraction after the answer spends the 200 tokens
      const calls = fake.requests.length;
      for (const line of ["Bist du da?", "Und jetzt?"]) input.write(`${line}\n`);
      await printedSoFar("Lilo: 😴");
      expect(fake.requests.length).toBe(calls);
      input.write("/budget\n");
      input.end("/retry\n");
      await done;
      expect(printed.match(/Das Tagesbudget ist aufgebraucht/g)).toHaveLength(1);
      expect(printed).toContain("Lilo: 😴");
      expect(printed).toContain("Die Grenze des Budgets ist für heute aufgehoben");
      expect(printed.trimEnd().endsWith("Lilo: Hallo zurück!")).toBe(true);
      expect(fake.requests.length).toBeGreaterThan(calls);
    } finally {
      await capped.cleanup();
    }
  });

  it("speaks English under an English persona", async () => {
    const en = makeTestLilo({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "anthropic:claude-test", LILO_LANGUAGE: "en" });
    try {
      const printed = await typeIntoTerminal(en.lilo, ["/retry", "/model"], { logFile: "/x/lilo.log" });
      expect(printed).toContain("Lilo is listening. Commands:\n/help – this list");
      expect(printed).toContain("(log: /x/lilo.log)");
      expect(printed).toContain("Nothing to retry");
      expect(printed).toContain("Chat model: anthropic:claude-test");
    } finally {
      await en.cleanup();
    }
  });
});

describe("npm start", () => {
  it("without a configured model exits non-zero, naming the variables to set", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-start-"));
    const env = { PATH: process.env.PATH ?? "", HOME: dir, LILO_HOME: dir, LILO_DATA_DIR: dir };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [entryScript("main.ts")], { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "pipe"] });
      let err = "";
      child.stderr.on("data", (c) => (err += String(c)));
      child.on("close", (c) => resolve({ code: c, stderr: err }));
    });
    expect(code).toBe(1);
    expect(stderr).toContain("ANTHROPIC_API_KEY");
    expect(stderr).toContain("DEEPSEEK_API_KEY");
    expect(stderr).toContain("OPENAI_BASE_URL");
  });

  it.each([
    ["LILO_TIMEZONE", "Mars/Olympus"],
    ["LILO_LOG_LEVEL", "verbose"],
  ])("names a wrong variable (%s) and exits non-zero", async (variable, value) => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-start-"));
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      LILO_HOME: dir,
      LILO_DATA_DIR: dir,
      ANTHROPIC_API_KEY: "k",
      [variable]: value,
    };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [entryScript("main.ts")], { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "pipe"] });
      let err = "";
      child.stderr.on("data", (c) => (err += String(c)));
      child.on("close", (c) => resolve({ code: c, stderr: err }));
    });
    expect(stderr).toContain(variable);
    expect(code).toBe(1);
  });

  it("on Ctrl-C in the terminal chat shuts down cleanly: background work finished, database closed, exit 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-start-"));
    await createTinyModel(join(dir, "models"), "test/tiny-bert", { dim: 16 });
    const fake = await startFakeAnthropic();
    let releaseExtraction: () => void = () => {};
    const held = new Promise<void>((resolve) => (releaseExtraction = resolve));
    fake.replyAlways(async (b) => {
      if (!isExtraction(b.system)) return "Hallo zurück!";
      await held;
      return '{"content":["Der Nutzer hat Lilo begrüßt."]}';
    });
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      LILO_HOME: dir,
      LILO_DATA_DIR: dir,
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: fake.baseURL,
      LILO_EMBEDDING_MODEL: "test/tiny-bert",
      LILO_EMBEDDING_OFFLINE: "true",
    };
    try {
      const child = spawn(process.execPath, [entryScript("main.ts")], { cwd: process.cwd(), env, stdio: ["pipe", "pipe", "pipe"] });
      const closed = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
      let out = "";
      let err = "";
      child.stderr.on("data", (c) => (err += String(c)));
      const answered = new Promise<void>((resolve) => child.stdout.on("data", (c) => (out += String(c)).includes("Hallo zurück!") && resolve()));
      child.stdin.write("Hallo Lilo\n");
      await answered;
      while (!fake.requests.some((r) => isExtraction(r.system))) await new Promise((r) => setTimeout(r, 20));
      child.kill("SIGINT"); // while the extraction call is still running
      setTimeout(releaseExtraction, 200);
      expect(await closed).toEqual({ code: 0, signal: null });
      // Log lines go to data/lilo.log (0600), named once; none appear in the conversation after the start.
      const logFile = join(dir, "lilo.log");
      expect(out.split(`(Protokoll: ${logFile})`)).toHaveLength(2);
      expect(statSync(logFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(logFile, "utf8")).toContain("stopping (press Ctrl-C again to quit at once)");
      expect(err).not.toContain("stopping");
      expect(out).not.toMatch(/\d{4}-\d{2}-\d{2}T[\d:.]+Z (info|warn)/);
      expect(existsSync(join(dir, "lilo.db-wal"))).toBe(false); // closed cleanly
      const db = new Database(join(dir, "lilo.db"), { readonly: true });
      expect(db.prepare("SELECT text FROM notes").all()).toEqual([{ text: "Der Nutzer hat Lilo begrüßt." }]);
      db.close();
    } finally {
      await fake.close();
    }
  });
});
