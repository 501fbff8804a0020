import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfigFromEnv } from "../../../core/foundation/config/load.ts";

describe("loadConfigFromEnv", () => {
  it("reads the .env file named by LILO_ENV_FILE; variables already set win", () => {
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

  it("without the file reads only the given variables", () => {
    const c = loadConfigFromEnv({ LILO_ENV_FILE: join(tmpdir(), "lilo-none-such.env"), LILO_LANGUAGE: "en" });
    expect(c.persona.language).toBe("en");
  });
});
