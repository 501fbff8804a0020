import { existsSync, readFileSync } from "node:fs";

/**
 * The version in package.json, read at run time. The file sits one level up
 * from admin-cli/ and two from the compiled dist/cli/.
 */
export function version(): string {
  const file = ["../package.json", "../../package.json"].map((p) => new URL(p, import.meta.url)).find((u) => existsSync(u));
  if (!file) return "unknown";
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}
