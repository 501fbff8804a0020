import { writeFileSync } from "node:fs";
import { GENERATED_FILES } from "./pages.ts";

/** `npm run docs`: writes `.env.example`, docs/configuration.md and docs/cli.md from the code they describe. */
for (const [path, render] of Object.entries(GENERATED_FILES)) {
  writeFileSync(new URL(`../../${path}`, import.meta.url), render());
  process.stdout.write(`${path} written\n`);
}
