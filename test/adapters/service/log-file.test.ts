import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KEPT_LOG_FILES, openLogFile } from "../../../adapters/service/log-file.ts";
import { consoleLogger } from "../../../core/index.ts";
import { registerSecrets } from "../../../core/foundation/util/redact.ts";

describe("the log file", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), "lilo-log-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("rotates by size into lilo.log.1 … and keeps only the newest rotated files, each readable by the owner only", async () => {
    const dir = tempDir();
    const log = openLogFile(dir, 200);
    const line = `${"x".repeat(99)}\n`;
    // One write at a time: the rotation checks the size after each write.
    for (let i = 0; i < 30; i++) await new Promise<void>((resolve) => setImmediate(() => resolve(log.write(line))));
    await log.close();
    const files = readdirSync(dir).sort();
    expect(files).toEqual(["lilo.log", ...Array.from({ length: KEPT_LOG_FILES }, (_, i) => `lilo.log.${i + 1}`)].sort());
    for (const f of files) {
      expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(200);
      expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
    }
  });

  it("holds every line written before close", async () => {
    const dir = tempDir();
    const log = openLogFile(dir, 10 * 1024 * 1024);
    for (let i = 0; i < 100; i++) log.write(`line ${i}\n`);
    await log.close();
    expect(readFileSync(log.path, "utf8").split("\n").filter(Boolean)).toHaveLength(100);
  });

  it("writes JSON lines that stay valid JSON when a secret inside them is masked", () => {
    registerSecrets(["very-secret-value-123"]);
    const lines: string[] = [];
    const logger = consoleLogger("info", (l) => void lines.push(l), "json");
    logger.debug("not written below the level");
    logger.warn('call failed: "very-secret-value-123"', { level: 3, error: "Bearer abcdefghijk" });
    expect(lines).toHaveLength(1);
    const o = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(o)).toEqual(["time", "level", "event", "data.level", "error"]);
    expect(o.level).toBe("warn");
    expect(JSON.stringify(o)).not.toContain("very-secret-value-123");
    expect(o.error).toBe("Bearer ***");
  });
});
