import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLilo, loadConfig, type Lilo } from "../../core/index.ts";
import { openToOthers } from "../../core/internal.ts";
import { ControlledEmbedder } from "../fakes/controlled-embedder.ts";
import { runCli } from "../helpers/cli.ts";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("Lilo's data is private to its owner", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("writes everything owner-only: the data directory 0700, the database, its WAL files, backups, exports 0600", async () => {
    root = mkdtempSync(join(tmpdir(), "lilo-modes-"));
    const dataDir = join(root, "data");
    const open = (): Lilo => createLilo(loadConfig({ LILO_DATA_DIR: dataDir }), { embedder: new ControlledEmbedder(16) });

    const lilo = open();
    lilo.rules.add("owner", "Antworte kurz.");
    expect(mode(dataDir)).toBe(0o700);
    for (const file of ["lilo.db", "lilo.db-wal", "lilo.db-shm"]) expect([file, mode(join(dataDir, file))]).toEqual([file, 0o600]);
    await lilo.close();

    const backup = await runCli(open, ["backup"]);
    expect(backup.code).toBe(0);
    const backups = join(dataDir, "backups");
    expect(mode(backups)).toBe(0o700);
    const files = readdirSync(backups);
    expect(files).toHaveLength(1);
    expect(mode(join(backups, files[0]!))).toBe(0o600);

    const out = join(root, "export.jsonl");
    expect((await runCli(open, ["export", "--store", "rules", "-o", out])).code).toBe(0);
    expect(mode(out)).toBe(0o600);
  });

  it("tightens the data directory or database an older Lilo left world-readable", async () => {
    root = mkdtempSync(join(tmpdir(), "lilo-modes-"));
    const dataDir = join(root, "data");
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const lilo = createLilo(loadConfig({ LILO_DATA_DIR: dataDir }), { embedder: new ControlledEmbedder(16) });
    await lilo.close();
    chmodSync(join(dataDir, "lilo.db"), 0o644);
    const again = createLilo(loadConfig({ LILO_DATA_DIR: dataDir }), { embedder: new ControlledEmbedder(16) });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, "lilo.db"))).toBe(0o600);
    await again.close();
  });

  it("recognises an .env file others may read, which `npm start` warns about", () => {
    root = mkdtempSync(join(tmpdir(), "lilo-modes-"));
    const env = join(root, ".env");
    writeFileSync(env, "ANTHROPIC_API_KEY=sk-ant-x\n", { mode: 0o644 });
    chmodSync(env, 0o644);
    expect(openToOthers(env)).toBe(true);
    chmodSync(env, 0o600);
    expect(openToOthers(env)).toBe(false);
  });
});
