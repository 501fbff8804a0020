import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLilo, loadConfig, type Lilo } from "../../../core/index.ts";
import { ADAPTER_SECTIONS } from "../../../adapters/config.ts";
import { webConfig } from "../../../adapters/web/config.ts";
import { runCli } from "../../helpers/cli.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

/** A port is what a person writes as one: decimal digits, 1–65535 (0 only where it has its own meaning). */
describe("the pages' port: LILO_WEB_PORT and `lilo web --port`", () => {
  let t: TestLilo;
  beforeAll(() => {
    t = makeTestLilo();
  });
  afterAll(() => t.cleanup());
  const open = (): Lilo => createLilo(loadConfig({ LILO_DATA_DIR: t.dir }, ADAPTER_SECTIONS), { embedder: t.embedder });

  it("LILO_WEB_PORT takes decimal 0–65535 (0: the bot serves no pages) and refuses hex, exponents, signs and out-of-range numbers", () => {
    const port = (value: string) => webConfig(loadConfig({ LILO_WEB_PORT: value }, ADAPTER_SECTIONS)).port;
    expect(port("0")).toBe(0);
    expect(port("8080")).toBe(8080);
    expect(port("65535")).toBe(65535);
    expect(webConfig(loadConfig({}, ADAPTER_SECTIONS)).port).toBe(0);
    for (const bad of ["0x50", "1e3", "+80", "80.0", "65536", "-1", "0b101"])
      expect(() => port(bad), bad).toThrow(/LILO_WEB_PORT: a port is a decimal number from 0 to 65535/);
  });

  it("`lilo web --port` refuses an empty value, hex, an exponent or a number past 65535 before it opens anything", async () => {
    for (const bad of ["", "0x50", "1e3", "65536", " 80"]) {
      const r = await runCli(open, ["web", "--port", bad]);
      expect(r.code, JSON.stringify(bad)).toBe(1);
      expect(r.out, JSON.stringify(bad)).toBe("");
      expect(r.err, JSON.stringify(bad)).toContain("a port is a decimal number from 0 to 65535");
    }
  });
});
