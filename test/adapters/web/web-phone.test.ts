import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { silentLogger } from "../../../core/index.ts";
import { startWebServer, type WebServer } from "../../../adapters/web/server.ts";
import type { UsageRow } from "../../../adapters/web/sources.ts";
import { SHOTS, browserPresent, openPhoneBrowser } from "../../helpers/phone-browser.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

/** Thirty days of three roles, each the same share, as the usage ledger reports them. */
function monthOfUsage(): UsageRow[] {
  const rows: UsageRow[] = [];
  for (let d = 0; d < 30; d++) {
    const day = new Date(Date.UTC(2026, 10, 3 + d)).toISOString().slice(0, 10);
    for (const role of ["chat", "extraction", "judge"]) rows.push({ day, role, calls: 4, inputTokens: 900, outputTokens: 100, costUsd: 0.2 });
  }
  return rows;
}

/** An English Lilo on a phone (390 px) in a German browser: the pages follow Lilo's language, not the browser's. */
describe.skipIf(!browserPresent && !process.env.CI)("Lilo's pages on a phone (English persona, German browser)", () => {
  let t: TestLilo;
  let server: WebServer;
  let browser: Awaited<ReturnType<typeof openPhoneBrowser>>;
  let page: Page;

  beforeAll(async () => {
    t = makeTestLilo({ LILO_LANGUAGE: "en", LILO_USER_NAMES: "chris=Christian" });
    server = await startWebServer(t.lilo, silentLogger, { host: "127.0.0.1", port: 0, hostGiven: false, sources: { usage: { perDay: monthOfUsage } } });
    browser = await openPhoneBrowser("de-DE");
    page = browser.page;
    await page.goto(server.loginLink("chris"));
    await page.getByRole("button", { name: "Open Lilo's pages" }).click();
    await page.waitForURL(/\/memories$/);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.cleanup();
  });

  it("the header names the person by the name Lilo calls them, not by the user id", async () => {
    expect(await page.locator("header .who-name").textContent()).toBe("Christian");
    expect(await page.locator("header").textContent()).not.toMatch(/\bchris\b/);
  });

  it("the tab bar shows that more tabs lie to the side, and on which side", async () => {
    // Run in the page (the tests compile without the DOM library, so as source text).
    const hint = (side: "before" | "after") => page.evaluate<string>(`getComputedStyle(document.querySelector(".nav-wrap"), "::${side}").opacity`);
    await page.goto(`${server.url}/memories`);
    expect(await page.evaluate<boolean>(`(() => { const n = document.querySelector(".nav"); return n.scrollWidth > n.clientWidth; })()`)).toBe(true);
    await expect.poll(() => hint("after")).toBe("1");
    expect(await hint("before")).toBe("0");
    await page.evaluate(`document.querySelector(".nav").scrollTo({ left: 10000 })`);
    await expect.poll(() => hint("before")).toBe("1");
    await expect.poll(() => hint("after")).toBe("0");
    await page.screenshot({ path: join(SHOTS, "phone-tabs.png") });
  });

  it("the usage chart of a month fits the phone: stacked bars (no area hides another), day labels in English that do not crowd", async () => {
    await page.goto(`${server.url}/usage`);
    const chart = page.locator("#usage-chart[data-rendered=true]");
    await chart.locator("canvas").waitFor();
    const labels = JSON.parse((await chart.getAttribute("data-day-labels"))!) as string[];
    for (const l of labels) expect(l).toMatch(/^(Nov|Dec) \d{1,2}$/);
    expect(labels).toContain("Dec 2");
    const width = await chart.locator("canvas").evaluate((c) => c.getBoundingClientRect().width);
    expect(labels.length * 56).toBeLessThanOrEqual(width);
    // Each role's own colour, unmixed, covers a large part of the plot: opaque bars stacked, not translucent areas on top of each other.
    const pure = await chart.locator("canvas").evaluate((el) => {
      const c = el as unknown as {
        width: number;
        height: number;
        getContext(k: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
      };
      const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      const counts: Record<string, number> = { "109,74,255": 0, "224,86,122": 0, "31,157,139": 0 };
      for (let i = 0; i < data.length; i += 4) {
        const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
        if (data[i + 3] === 255 && key in counts) counts[key]!++;
      }
      return Object.values(counts);
    });
    for (const n of pure) expect(n).toBeGreaterThan(3000);
    await page.screenshot({ path: join(SHOTS, "phone-usage.png"), fullPage: true });
  });

  it("settings: labels in the page's language, a time and weekdays for how often she reflects, one Save for the page", async () => {
    await page.goto(`${server.url}/settings`);
    const row = (key: string) => page.locator(`.setting[data-key="${key}"]`);
    expect(await row("reflection.cron").locator(".name").textContent()).toContain("How often she reflects");
    expect(await row("budget.day").locator(".name").textContent()).toContain("Budget per day");
    expect(await page.locator('input[name="reflection.cron"]').count()).toBe(0);
    expect(await page.locator("main").getByRole("button", { name: "Save" }).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, "phone-settings.png"), fullPage: true });

    // No weekday: refused as a whole, nothing stored.
    for (const day of ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]) await row("reflection.cron").getByLabel(day).uncheck();
    await page.locator('input[name="diary.time"]').fill("20:45");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator(".notice.error", { hasText: "choose at least one day" }).waitFor();
    expect(t.lilo.settings.get("diary.time")?.source).not.toBe("set");

    // The refused form comes back with the values asked for, the incomplete schedule as it is stored.
    expect(await page.locator('input[name="diary.time"]').inputValue()).toBe("20:45");
    await row("reflection.cron").locator('input[type="time"]').fill("21:30");
    for (const day of ["Tue", "Thu", "Sat", "Sun"]) await row("reflection.cron").getByLabel(day).uncheck();
    await page.locator('input[name="diary.time"]').fill("20:45");
    await page.locator('input[name="budget.day"]').fill("2.50");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator(".notice", { hasText: "Saved." }).waitFor();
    expect(t.lilo.settings.get("reflection.cron")?.value).toBe("30 21 * * 1,3,5");
    expect(t.lilo.config.diary.time).toBe("20:45");
    expect(t.lilo.settings.get("budget.day")?.source).toBe("set");
  });
});
