import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dataKeyStep } from "../../admin-cli/setup/data-key.ts";

describe("the setup's data key", () => {
  let home: string;
  beforeEach(() => void (home = mkdtempSync(join(tmpdir(), "lilo-setup-key-"))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("generates a random key for a new install and says where it is and that losing it loses the memory", () => {
    const a = dataKeyStep(join(home, ".env"), {}, join(home, "data", "lilo.db"));
    const b = dataKeyStep(join(home, ".env"), {}, join(home, "data", "lilo.db"));
    expect(a.lines.LILO_DATA_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(a.lines.LILO_DATA_KEY).not.toBe(b.lines.LILO_DATA_KEY);
    expect(a.say).toContain(`LILO_DATA_KEY in ${join(home, ".env")}`);
    expect(a.say).toContain("loses it loses the memory");
  });

  it("keeps a key already set in .env or the environment", () => {
    writeFileSync(join(home, ".env"), `LILO_DATA_KEY=${"ab".repeat(32)}\n`);
    expect(dataKeyStep(join(home, ".env"), {}, undefined)).toEqual({ lines: {}, say: undefined });
    expect(dataKeyStep(join(home, "none.env"), { LILO_DATA_KEY_FILE: "/run/key" }, undefined)).toEqual({ lines: {}, say: undefined });
  });

  it("gives an existing unencrypted database no key, which would lock it, but the way to encrypt it", () => {
    const db = join(home, "lilo.db");
    writeFileSync(db, "SQLite format 3\0");
    const step = dataKeyStep(join(home, ".env"), {}, db);
    expect(step.lines).toEqual({});
    expect(step.say).toContain("npx lilo encrypt --apply");
  });
});
