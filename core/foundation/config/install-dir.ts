import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder Lilo is installed in: the nearest folder above `moduleUrl`
 * (an `import.meta.url`) holding Lilo's package.json. It is the default
 * LILO_HOME, so `npm start` and a linked `lilo` find `.env` and `data/`
 * there from any directory, compiled (dist/cli/) or not.
 */
export function installDir(moduleUrl: string): string | undefined {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && isLilo(pkg)) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function isLilo(pkg: string): boolean {
  try {
    return (JSON.parse(readFileSync(pkg, "utf8")) as { name?: unknown }).name === "lilo";
  } catch {
    return false; // an unreadable package.json is not Lilo's: keep looking above
  }
}
