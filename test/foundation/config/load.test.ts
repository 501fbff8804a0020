import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfigFromEnv } from "../../../core/foundation/config/load.ts";
import { ConfigError } from "../../../core/foundation/errors.ts";

describe("loadConfigFromEnv", () => {
  it("reads the .env file named by LILO_ENV_FILE beneath the variables already set", () => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-env-"));
    const file = join(dir, "test.env");
    writeFileSync(file, "LILO_NAME=Mira\nLILO_NOTES_TOP_K=7\n# LILO_LANGUAGE=en\n");
    const env: Record<string, string | undefined> = { LILO_ENV_FILE: file, LILO_NOTES_TOP_K: "9" };
    const c = loadConfigFromEnv(env);
    expect(c.persona.name).toBe("Mira");
    expect(c.memory.notesTopK).toBe(9);
    expect(c.persona.language).toBe("de");
    expect(env.LILO_NAME).toBe("Mira");
    expect(c.run.envFile).toBe(file);
  });

  it("refuses a LILO_ENV_FILE that does not exist, naming it", () => {
    const missing = join(tmpdir(), "lilo-none-such.env");
    expect(() => loadConfigFromEnv({ LILO_ENV_FILE: missing })).toThrow(ConfigError);
    expect(() => loadConfigFromEnv({ LILO_ENV_FILE: missing })).toThrow(`LILO_ENV_FILE names ${missing}, which does not exist`);
  });

  it("reads .env and relative paths from the home (LILO_HOME, else the install folder), not the current directory", () => {
    const home = mkdtempSync(join(tmpdir(), "lilo-home-"));
    writeFileSync(join(home, ".env"), "LILO_NAME=Mira\nLILO_DATA_DIR=store\n");
    const viaVar = loadConfigFromEnv({ LILO_HOME: home });
    expect(viaVar.persona.name).toBe("Mira");
    expect(viaVar.dataDir).toBe(join(home, "store"));
    expect(viaVar.dbPath).toBe(join(home, "store", "lilo.db"));
    expect(viaVar.run.envFile).toBe(join(home, ".env"));
    const env: Record<string, string | undefined> = {};
    const viaInstall = loadConfigFromEnv(env, [], home);
    expect(viaInstall.home).toBe(home);
    expect(env.LILO_HOME).toBe(home); // child processes find the same home
    expect(viaInstall.embedding.localDir).toBe(join(home, "store", "models"));
    // Without a .env in the home: only the given variables, no error.
    const empty = mkdtempSync(join(tmpdir(), "lilo-home-"));
    mkdirSync(join(empty, "data"));
    expect(loadConfigFromEnv({ LILO_HOME: empty, LILO_LANGUAGE: "en" }).persona.language).toBe("en");
  });
});
