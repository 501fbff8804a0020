import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTinyModel } from "../fixtures/tiny-model.ts";
import { createTinyGguf } from "../fixtures/tiny-gguf.ts";
import { LOCAL_MODELS } from "../../core/internal.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.ts";
import { isExtraction, NO_EXTRACTION } from "../helpers/test-lilo.ts";

const run = promisify(execFile);
const README = readFileSync("README.md", "utf8");
const CI = readFileSync(".ci/run", "utf8");

/** The lines of the README's ```sh blocks: each one a command a reader may type. */
function shellCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.split("\n"))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line && !line.startsWith("#"));
}

/** The README's first conversation: the reader's line ("> …") and Lilo's answer ("Lilo: …"). */
function firstConversation(markdown: string): { said: string; answer: string } {
  const block = /^## A first conversation[\s\S]*?^```text\n([\s\S]*?)^```/m.exec(markdown)?.[1] ?? "";
  const said = /^> (.+)$/m.exec(block)?.[1];
  const answer = /^Lilo: (.+)$/m.exec(block)?.[1];
  if (!said || !answer) throw new Error("the README's first conversation needs a '> …' line and a 'Lilo: …' line");
  return { said, answer };
}

/** A command CI runs, as a line of .ci/run (options after the command allowed). */
const ciRuns = (command: string) => new RegExp(`^${command}(\\s|$)`, "m").test(CI);

/** The README's scripted setup: `npx lilo setup … --yes`, run as the README writes it, with npx in Lilo's folder. */
const SETUP = /^npx lilo setup (.+ --yes)$/;

/** Every shape of command this file runs; a README command matching none fails the first test. */
const COVERED: Array<{ shape: RegExp; how: string }> = [
  { shape: /^npm install$/, how: "CI's clean install (`npm ci` in .ci/run)" },
  { shape: /^npm test$/, how: "CI's test command (.ci/run)" },
  { shape: /^npm start$/, how: "spawned below with the README's first conversation" },
  { shape: SETUP, how: "spawned below: a server of one's own against a fake model server, Lilo's own model with a copied file" },
];

describe("the README", () => {
  it("stays a short entry page (at most 15 KB)", () => {
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(15 * 1024);
  });
});

describe("every command the README shows is run", () => {
  it("each shell line of the README is one this test runs", () => {
    const commands = shellCommands(README);
    expect(commands.length).toBeGreaterThan(0);
    const uncovered = commands.filter((c) => !COVERED.some(({ shape }) => shape.test(c)));
    expect(uncovered, "add a way to run these commands to test/docs/readme-commands.test.ts").toEqual([]);
  });

  it("npm install is the user's form of CI's npm ci", () => {
    expect(shellCommands(README)).toContain("npm install");
    // npm ci installs exactly what package-lock.json holds, as `npm install` does on a fresh clone.
    expect(ciRuns("npm ci")).toBe(true);
  });

  it("npm test is CI's test command", () => {
    expect(shellCommands(README)).toContain("npm test");
    expect(ciRuns("npm test")).toBe(true);
  });

  describe("the setup line and npm start", () => {
    let home: string;
    let llm: FakeOpenAI;
    let child: ChildProcessWithoutNullStreams | undefined;
    const conversation = firstConversation(README);
    const setupLines = shellCommands(README).filter((c) => SETUP.test(c));
    const setupLine = setupLines.find((c) => c.includes("--base-url"));
    const ownModelLine = setupLines.find((c) => / --model local /.test(c));

    beforeAll(async () => {
      home = mkdtempSync(join(tmpdir(), "lilo-readme-"));
      await createTinyModel(join(home, "data", "models"), "test/tiny-bert", { dim: 16 });
      const model = /--model openai:(\S+)/.exec(setupLine ?? "")?.[1] ?? "llama3.1";
      llm = await startFakeOpenAI({ models: [model] });
      llm.replyAlways((b) => (isExtraction(b.messages.find((m) => m.role === "system")?.content) ? NO_EXTRACTION : conversation.answer));
    }, 60_000);
    afterAll(async () => {
      // npm runs tsx, which runs node: a test that timed out takes the whole group down.
      if (child?.pid && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
      await llm.close();
      rmSync(home, { recursive: true, force: true });
    });

    /** A reader's machine: a fresh home, the tests' tiny embedding model, no scheduled jobs. */
    const env = () => ({
      PATH: process.env.PATH ?? "",
      HOME: home,
      LANG: "C",
      TERM: "dumb",
      LILO_HOME: home,
      LILO_EMBEDDING_MODEL: "test/tiny-bert",
      LILO_EMBEDDING_OFFLINE: "true",
      LILO_DIARY_ENABLED: "false",
      LILO_REFLECTION_ENABLED: "false",
      LILO_GREETING_ENABLED: "false",
    });

    /** `npx lilo setup <args>` in Lilo's folder, as a reader types it after `npm install`; the home comes from LILO_HOME. */
    const npxSetup = (line: string, where: Record<string, string>, swap: (args: string[]) => void = () => undefined) => {
      const args = SETUP.exec(line)![1]!.split(/\s+/);
      expect(args.join(" "), "the line needs no shell quoting").not.toMatch(/["'`$\\]/);
      swap(args);
      return run("npx", ["lilo", "setup", ...args], { cwd: process.cwd(), env: where });
    };

    it("the README's npx lilo setup line writes .env for the server it names", async () => {
      expect(setupLine, "the README shows an `npx lilo setup … --base-url … --yes` line").toBeDefined();
      // The server the README names is the reader's; here it is the fake one.
      const out = await npxSetup(setupLine!, env(), (args) => (args[args.indexOf("--base-url") + 1] = llm.baseURL));
      expect(out.stdout).toContain(`wrote ${join(home, ".env")}`);
      expect(readFileSync(join(home, ".env"), "utf8")).toContain(`OPENAI_BASE_URL=${llm.baseURL}`);
    }, 60_000);

    it("the README's setup line for Lilo's own model takes a model file copied into the folder it names", async () => {
      expect(ownModelLine, "the README shows an `npx lilo setup … --model local … --yes` line").toBeDefined();
      const own = mkdtempSync(join(tmpdir(), "lilo-readme-own-"));
      try {
        // Never the real gigabyte: a tiny GGUF under the catalogue's file name, as a reader without internet copies it.
        await createTinyGguf(join(own, "data", "models", LOCAL_MODELS[0]!.file));
        const out = await npxSetup(ownModelLine!, { ...env(), HOME: own, LILO_HOME: own });
        expect(out.stdout).toContain(`wrote ${join(own, ".env")}`);
        expect(readFileSync(join(own, ".env"), "utf8")).toMatch(/^LILO_CHAT_MODEL=local$/m);
      } finally {
        rmSync(own, { recursive: true, force: true });
      }
    }, 60_000);

    // After the setup line, on the .env it wrote: the order a reader follows.
    it("npm start answers the README's first message in the terminal chat", async () => {
      child = spawn("npm", ["start"], { cwd: process.cwd(), env: env(), stdio: ["pipe", "pipe", "pipe"], detached: true });
      let out = "";
      let err = "";
      child.stdout.on("data", (c) => (out += String(c)));
      child.stderr.on("data", (c) => (err += String(c)));
      const running = child;
      const closed = new Promise<number | null>((resolve) => running.on("close", (code) => resolve(code)));
      child.stdin.write(`${conversation.said}\n`);
      child.stdin.end("/quit\n");
      const code = await closed;
      expect(out, err).toContain(`Lilo: ${conversation.answer}`);
      expect(code).toBe(0);
      const asked = llm.requests.find((b) => !isExtraction(b.messages.find((m) => m.role === "system")?.content));
      expect(asked?.messages.at(-1)).toEqual({ role: "user", content: conversation.said });
    }, 120_000);
  });
});
