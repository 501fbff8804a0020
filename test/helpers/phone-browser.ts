import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";

/** Debian's Chromium; playwright-core downloads no browser of its own. */
export const CHROMIUM = "/usr/bin/chromium";
/** Without the background-networking flags Chromium keeps dialling Google's hosts, which this closed network refuses. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** Where the browser tests leave their screenshots (git-ignored), to look at by hand. */
export const SHOTS = join(import.meta.dirname, "..", "..", "test-output", "web-screenshots");
/** Whether the browser is installed; CI installs it, so there its absence fails the tests instead of skipping them. */
export const browserPresent = existsSync(CHROMIUM);

/** A phone-sized (390 × 844) headless Chromium with a profile of its own, in `locale`. */
export async function openPhoneBrowser(locale: string): Promise<{ page: Page; close: () => Promise<void> }> {
  mkdirSync(SHOTS, { recursive: true });
  const profileDir = mkdtempSync(join(tmpdir(), "lilo-chromium-"));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 390, height: 844 },
    locale,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  return {
    page,
    close: async () => {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
