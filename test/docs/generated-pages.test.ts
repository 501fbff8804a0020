import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED_FILES } from "../../admin-cli/docs/pages.ts";

const ROOT = new URL("../../", import.meta.url);

/** The committed text of a generated file, or a note that it is missing. */
function committed(path: string): string {
  const url = new URL(path, ROOT);
  return existsSync(url) ? readFileSync(url, "utf8") : `(${path} is missing)`;
}

describe("the generated docs pages", () => {
  // .env.example has its own check next to the configuration table (test/foundation/config/env-example.test.ts).
  for (const path of ["docs/configuration.md", "docs/cli.md"]) {
    it(`${path} is what \`npm run docs\` writes from the code today`, () => {
      const render = GENERATED_FILES[path];
      expect(render, `${path} is not in admin-cli/docs/pages.ts`).toBeDefined();
      expect(committed(path), `${path} is stale: run \`npm run docs\` and commit the result`).toBe(render!());
    });
  }
});
