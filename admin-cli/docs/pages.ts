import { renderEnvExample } from "../../core/internal.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";
import { buildProgram } from "../program.ts";
import { renderCliPage } from "./cli-page.ts";
import { renderConfigurationPage } from "./configuration-page.ts";

/**
 * Every file generated from the code, by its path from the repository root:
 * `npm run docs` writes them all, test/docs/generated-pages.test.ts and
 * test/foundation/config/env-example.test.ts fail when a committed one differs.
 */
export const GENERATED_FILES: Readonly<Record<string, () => string>> = {
  ".env.example": () => renderEnvExample(ADAPTER_SECTIONS),
  "docs/configuration.md": () => renderConfigurationPage(ADAPTER_SECTIONS),
  "docs/cli.md": () => renderCliPage(describedProgram()),
};

/** The `lilo` command tree as the docs read it: nothing runs, so opening Lilo is refused and nothing is printed. */
function describedProgram() {
  const refuse = () => {
    throw new Error("the docs read the command tree; no command runs");
  };
  return buildProgram(refuse, { out: () => {}, err: () => {}, progressStream: process.stderr });
}
