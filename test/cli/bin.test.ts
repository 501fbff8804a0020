import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { entryScript } from "../helpers/entry.ts";

const run = promisify(execFile);

/** The real `lilo` command as a user runs it: a new node process on admin-cli/bin.js. */
describe("the lilo executable", () => {
  let dir: string;
  const lilo = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, ["admin-cli/bin.js", ...args], {
      env: { PATH: process.env.PATH ?? "", LILO_HOME: dir, LILO_DATA_DIR: dir, LILO_TIMEZONE: "Europe/Berlin", ...env },
    });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-bin-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the version from package.json with the command list, compiled or through tsx", async () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect((await lilo(["--version"])).stdout.trim()).toBe(pkg.version);
    expect((await lilo(["--version"], { LILO_CLI_TSX: "1" })).stdout.trim()).toBe(pkg.version);
    const help = (await lilo(["--help"])).stdout;
    for (const c of ["memory", "rules", "topics", "suggestions", "search-log", "settings"]) expect(help).toContain(`  ${c}`);
  }, 30_000);

  it("a read command on a home without data refuses, naming the folder, creating nothing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "lilo-empty-"));
    const refused = await lilo(["rules", "list"], { LILO_HOME: empty, LILO_DATA_DIR: "data" }).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining(`Lilo has no data in ${join(empty, "data")}`) });
    expect(existsSync(join(empty, "data"))).toBe(false);
    expect((refused as { stderr: string }).stderr).toContain("Run `npx lilo setup` and `npm start`");
    // After `lilo setup` only the first start is missing.
    writeFileSync(join(empty, ".env"), "LILO_LANGUAGE=en\n", { mode: 0o600 });
    const afterSetup = await lilo(["rules", "list"], { LILO_HOME: empty, LILO_DATA_DIR: "data" }).catch((e: { code: number; stderr: string }) => e);
    expect(afterSetup).toMatchObject({ code: 1, stderr: expect.stringContaining("Start Lilo once (`npm start` in her folder)") });
    expect(existsSync(join(empty, "data"))).toBe(false);
    const missingEnv = await lilo(["status"], { LILO_ENV_FILE: join(empty, "typo.env") }).catch((e: { code: number; stderr: string }) => e);
    expect(missingEnv).toMatchObject({ code: 1, stderr: expect.stringContaining("typo.env, which does not exist") });
    rmSync(empty, { recursive: true, force: true });
  }, 30_000);

  it("runs a command against the data directory, printing JSON", async () => {
    writeFileSync(join(dir, "empty.jsonl"), "");
    await liloOffline(["import", join(dir, "empty.jsonl")]); // creates the database (an import may)
    expect(JSON.parse((await lilo(["rules", "list", "--json"])).stdout)).toEqual([]);
    expect(JSON.parse((await lilo(["suggestions", "--json"])).stdout)).toEqual([]);
    const bad = await lilo(["topics", "done", "7"]).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringContaining("no topic with id 7") });
  }, 30_000);

  // The same command tree in its own process, with the offline hash embedder (test/crash/cli-entry.ts): import opens the memory.
  const liloOffline = (args: string[]) =>
    run(process.execPath, [entryScript("test/crash/cli-entry.ts"), ...args], {
      env: { PATH: process.env.PATH ?? "", LILO_HOME: dir, LILO_DATA_DIR: dir, LILO_TIMEZONE: "Europe/Berlin" },
    });

  it("from another directory reaches the same data through LILO_HOME, leaving no data/ there", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), "lilo-cwd-"));
    const env = { PATH: process.env.PATH ?? "", LILO_HOME: dir, LILO_DATA_DIR: dir, LILO_TIMEZONE: "Europe/Berlin" };
    const bin = join(process.cwd(), "admin-cli", "bin.js");
    const status = await run(process.execPath, [bin, "status"], { cwd: elsewhere, env });
    expect(status.stdout).toMatch(new RegExp(`^home +${dir}$`, "m"));
    expect(status.stdout).toMatch(new RegExp(`^data +${join(dir, "lilo.db")}$`, "m"));
    expect(JSON.parse((await run(process.execPath, [bin, "rules", "list", "--json"], { cwd: elsewhere, env })).stdout)).toEqual([]);
    expect(existsSync(join(elsewhere, "data"))).toBe(false);
    rmSync(elsewhere, { recursive: true, force: true });
  }, 30_000);

  it("exits cleanly when its reader or its input is missing: 0 when the pipe closes early (| head -1), one sentence for a missing import file", async () => {
    const many = join(dir, "many.jsonl");
    const long = "x".repeat(200);
    writeFileSync(many, Array.from({ length: 600 }, (_, i) => JSON.stringify({ store: "notes", text: `Notiz ${i} ${long}`, userId: "owner" })).join("\n"));
    await liloOffline(["import", many, "--apply"]);
    const bin = join(process.cwd(), "admin-cli", "bin.js");
    for (const cmd of ["memory list -n 600", "--help", "export --all"]) {
      const rc = join(dir, "rc");
      const piped = await run("sh", ["-c", `{ "${process.execPath}" "${bin}" ${cmd}; echo $? > "${rc}"; } | head -1`], {
        env: { PATH: process.env.PATH ?? "", LILO_HOME: dir, LILO_DATA_DIR: dir, LILO_TIMEZONE: "Europe/Berlin" },
      });
      // An export of an install without a data key says once that it is readable; nothing else goes to stderr.
      expect(piped.stderr.replace(/^warning: the export is not encrypted .*\n/, ""), cmd).toBe("");
      expect(piped.stdout.split("\n").filter(Boolean), cmd).toHaveLength(1);
      expect(readFileSync(rc, "utf8").trim(), cmd).toBe("0");
    }
    const missing = await lilo(["import", "/nonexistent.jsonl"]).catch((e: { code: number; stderr: string }) => e);
    expect(missing).toMatchObject({ code: 1, stderr: "error: /nonexistent.jsonl does not exist\n" });
  }, 60_000);

  it("the real process imports like the in-process command: a bad value refused with its line and rule, a BOM read past", async () => {
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${JSON.stringify({ store: "profile", category: "bogus", text: "Mag Tee", userId: "owner" })}\n`);
    const refused = await liloOffline(["import", bad, "--apply"]).catch((e: { code: number; stderr: string; stdout: string }) => e);
    expect(refused).toMatchObject({ code: 1 });
    expect(`${(refused as { stdout: string }).stdout}${(refused as { stderr: string }).stderr}`).toMatch(/line 1: profile category must be one of/);
    const bom = join(dir, "bom.jsonl");
    writeFileSync(bom, `\uFEFF${JSON.stringify({ store: "profile", category: "work", text: "Arbeitet als Tischler", userId: "owner" })}\n`);
    await liloOffline(["import", bom, "--apply"]);
    const facts = JSON.parse((await liloOffline(["profile", "list", "--json"])).stdout) as { text: string }[];
    expect(facts.map((f) => f.text)).toEqual(["Arbeitet als Tischler"]);
  }, 60_000);
});
