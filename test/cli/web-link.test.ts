import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLilo, loadConfig } from "../../core/index.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";
import { runCli } from "../helpers/cli.ts";
import { entryScript } from "../helpers/entry.ts";

const run = promisify(execFile);

/**
 * `lilo web --link` while the pages run in another process, as a person meets it: the page of a used link
 * names that command, and it must not fail on the port the running server holds.
 */
describe("lilo web --link against running pages (real processes)", () => {
  let dir: string;
  let server: ChildProcess | undefined;
  const env = () => ({ PATH: process.env.PATH ?? "", LILO_HOME: dir, LILO_DATA_DIR: dir, LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "en" });
  // The real command tree with the offline hash embedder, in a process of its own.
  const args = (a: string[]) => [entryScript("test/crash/cli-entry.ts"), ...a];
  const lilo = (a: string[]) =>
    run(process.execPath, args(a), { env: env() }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  // The same database in this process, opened as the child processes open it (the offline hash embedder).
  const open = () => createLilo(loadConfig(env(), ADAPTER_SECTIONS), { embedder: new HashEmbedder(64) });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-web-link-"));
    await open().close(); // creates the database
  });
  afterAll(() => {
    server?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts `lilo web --port 0` and returns its address once it printed its link. */
  const startServer = async (): Promise<string> => {
    server = spawn(process.execPath, args(["web", "--port", "0"]), { env: env(), stdio: ["ignore", "pipe", "pipe"] });
    const lines = createInterface({ input: server.stdout! });
    const first = await new Promise<string>((resolve) => lines.once("line", resolve));
    return new URL(first).origin;
  };
  const login = (origin: string, link: string) =>
    fetch(`${origin}/login`, { method: "POST", body: new URLSearchParams({ token: link.split("/login/")[1]! }), redirect: "manual" });

  it("prints a link the running `lilo web` accepts, and a second `lilo web` on its port hands one out instead of failing", async () => {
    const origin = await startServer();
    const linked = await lilo(["web", "--link", "--user", "chris"]);
    expect(linked.code).toBe(0);
    expect(linked.stdout.trim()).toMatch(new RegExp(`^${origin}/login/[\\w-]{43}$`));
    expect((await login(origin, linked.stdout.trim())).status).toBe(303);

    const again = await lilo(["web", "--port", new URL(origin).port]);
    expect(again.code).toBe(0);
    const [link, note] = again.stdout.trim().split("\n");
    expect(link).toMatch(new RegExp(`^${origin}/login/[\\w-]{43}$`));
    expect(note).toContain("already run");
    expect(again.stderr).not.toContain("EADDRINUSE");
    expect((await login(origin, link!)).status).toBe(303);
  }, 60_000);

  it("after the server was killed, says that no pages run instead of printing a dead link", async () => {
    server!.kill("SIGKILL");
    await new Promise((r) => server!.once("exit", r));
    // Its record stays behind; the server no longer answers for it.
    const after = await runCli(open, ["web", "--link"]);
    expect(after.code).toBe(1);
    expect(after.out).toBe("");
    expect(after.err).toContain("no pages of Lilo are running");
  }, 30_000);
});
