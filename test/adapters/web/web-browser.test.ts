import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { silentLogger } from "../../../core/index.ts";
import { startWebServer, type WebServer } from "../../../adapters/web/server.ts";
import { basisVector, vectorWithCosine } from "../../fakes/controlled-embedder.ts";
import { CHROMIUM, SHOTS, browserPresent, openPhoneBrowser } from "../../helpers/phone-browser.ts";
import { callKind, say, startScenario, USER, type Scenario } from "../../conversation/correction/scenario.ts";

// In CI the browser must be there (.ci/run installs it): a missing one fails there instead of skipping.
if (!browserPresent && !process.env.CI) console.warn(`skipping the browser tests of Lilo's pages: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!browserPresent && !process.env.CI)("Lilo's pages in a real headless Chromium (German persona, phone screen)", () => {
  let s: Scenario;
  let server: WebServer;
  let browser: Awaited<ReturnType<typeof openPhoneBrowser>>;
  let page: Page;
  const ids: Record<string, number> = {};
  let ruleId: number;
  const DIM = 64;

  beforeAll(async () => {
    s = await startScenario();
    const { lilo, embedder } = s.t;
    const note = async (text: string, vector?: number[]) => {
      if (vector) embedder.set(text, vector);
      const r = await lilo.memory.add({ userId: USER, text });
      if (!r.added) throw new Error(`not added: ${text}`);
      return r.id;
    };
    ids.kino = await note("Christian geht freitags gern ins Kino");
    ids.tee = await note("Christian trinkt abends gern Tee");
    // A fact that reaches many stores: a note, the profile, and a chat turn whose answer files it as
    // important, a thought and a follow-up topic (the chat message itself holds it too).
    ids.tauben = await note("Angst vor Tauben", basisVector(DIM, 3));
    embedder.set("Wovor habe ich Angst?", basisVector(DIM, 3));
    embedder.set("Welche Vögel meidet er?", basisVector(DIM, 3));
    lilo.profile.add(USER, "health", "Hat Angst vor Tauben");
    const told = "Ich habe Angst vor Tauben.";
    s.chat = (m) =>
      m === told
        ? "Das verstehe ich gut. [IMPORTANT: Hat große Angst vor Tauben] [THOUGHT: Seine Angst vor Tauben geht mir nach.] [FOLLOWUP: Wie geht es mit der Angst vor Tauben?]"
        : "Okay.";
    await say(s, told);
    await lilo.memory.add({ userId: USER, store: "important", text: "Christians Tochter heißt Mia" });
    lilo.profile.add(USER, "relationships", "Tochter Mia, 7 Jahre");
    lilo.profile.add(USER, "work", "Arbeitet als Tischler");
    ruleId = lilo.rules.add(USER, "Antworte in kurzen Sätzen");
    // A real correction: the judge (fake model) deletes a contradicted note during a chat turn.
    const msg = "Ich wohne nicht mehr in Berlin, sondern in Köln.";
    embedder.set(msg, basisVector(DIM, 0));
    ids.berlin = await note("Christian wohnt in Berlin", vectorWithCosine(basisVector(DIM, 0), 0.48, 5));
    s.judge = JSON.stringify({ verdicts: [{ id: `n${ids.berlin}`, action: "delete", reason: "Christian ist nach Köln gezogen" }] });
    await say(s, msg);
    s.judge = JSON.stringify({ verdicts: [] });
    // Usage (the ledger) and receipts (/why) are the real ones these chat turns left.
    server = await startWebServer(lilo, silentLogger, { host: "127.0.0.1", port: 0, hostGiven: false });
    browser = await openPhoneBrowser("de-DE");
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await s?.cleanup();
  });

  /** Elements of the page's content that stick out past its right edge on the phone (wide tables scroll in their own box). */
  const OVERFLOW = `(() => {
    const main = document.querySelector("main");
    const edge = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight) + 1;
    return [...main.querySelectorAll("*")]
      .filter((e) => !e.closest(".scroll") && e.getBoundingClientRect().right > edge)
      .map((e) => e.tagName.toLowerCase() + (e.className ? "." + e.className : ""));
  })()`;
  /** Saves a screenshot of the page, after checking it fits the phone's width. */
  const shot = async (name: string) => {
    expect(await page.evaluate<string[]>(OVERFLOW), `${name} is wider than the phone`).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const item = (text: string) => page.locator("li.item", { hasText: text });

  it("logs in with a one-time link, landing on the memories", async () => {
    await page.goto(server.loginLink(USER));
    await shot("login");
    await page.getByRole("button", { name: "Lilos Seiten öffnen" }).click();
    await page.waitForURL(/\/memories$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Erinnerungen");
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await item("Kino").count()).toBe(1);
    await shot("memories");
  });

  it("searches a memory by words", async () => {
    await page.getByRole("searchbox").fill("Kino");
    await page.getByRole("searchbox").press("Enter");
    await page.waitForURL(/q=Kino/);
    expect(await page.locator("li.item").count()).toBe(1);
    expect(await item("freitags gern ins Kino").count()).toBe(1);
    await shot("search");
  });

  it("edits a memory in place (htmx), changing Lilo's own memory", async () => {
    await page.goto(`${server.url}/memories`);
    await item("Tee").getByRole("link", { name: "Bearbeiten" }).click();
    const editor = page.locator(`#m-notes-${ids.tee} textarea`);
    await editor.fill("Christian trinkt abends lieber Kräutertee");
    await page.locator(`#m-notes-${ids.tee}`).getByRole("button", { name: "Speichern" }).click();
    await expect.poll(() => page.locator(`#m-notes-${ids.tee} .text`).textContent()).toBe("Christian trinkt abends lieber Kräutertee");
    expect(s.t.lilo.memory.get(USER, "notes", ids.tee!)!.text).toBe("Christian trinkt abends lieber Kräutertee");
  });

  it("searches a memory by meaning (no word in common)", async () => {
    await page.goto(`${server.url}/memories?q=${encodeURIComponent("Welche Vögel meidet er?")}`);
    expect(await item("Angst vor Tauben").count()).toBe(1);
  });

  it("forgets everywhere after the chat's confirmation: gone from search, the pages, every later model request", async () => {
    const sheetNotes = async () => (await s.t.lilo.preview({ userId: USER, text: "Wovor habe ich Angst?" })).notes.map((n) => n.id);
    expect(await sheetNotes()).toContain(ids.tauben);
    expect(JSON.stringify((await s.t.lilo.preview({ userId: USER, text: "Wovor habe ich Angst?" })).request)).toMatch(/Tauben/);
    await page.goto(`${server.url}/memories?q=Tauben`);
    await item("Angst vor Tauben").first().getByRole("link", { name: "Vergessen" }).click();
    await page.waitForURL(/\/forget\/N\d+/);
    // The question the chat asks, listing every store that holds it; the details name each place.
    const question = await page.locator(".forget-question").textContent();
    expect(question).toMatch(/^Das habe ich gefunden \(\d+\):/);
    expect(question).toContain("Soll ich das alles vergessen?");
    const kinds = await page.locator(".forget-items li").evaluateAll((els) => els.map((e) => e.getAttribute("data-kind")));
    expect(new Set(kinds)).toEqual(new Set(["notes", "important", "thoughts", "profile", "topics", "messages"]));
    await page.locator("details.panel summary").click();
    await shot("forget-confirm");
    // "No" leaves everything.
    await page.getByRole("link", { name: "Nein, alles behalten" }).click();
    await page.waitForURL(/\/memories$/);
    expect(s.t.lilo.memory.get(USER, "notes", ids.tauben!)).toBeDefined();
    await page.goBack();
    await page.getByRole("button", { name: "Ja, vergessen" }).click();
    await page.waitForURL(/done=forgotten/);
    expect(await page.locator(".notice").textContent()).toMatch(/^Vergessen: \d+ entfernt, \d+ umgeschrieben, 1 Nachrichten geschwärzt\.$/);
    await page.getByRole("searchbox").first().fill("Tauben");
    await page.getByRole("searchbox").first().press("Enter");
    await page.waitForURL(/q=Tauben/);
    expect(await item("Tauben").count()).toBe(0);
    for (const path of ["/important", "/profile", "/thoughts", "/topics"]) {
      await page.goto(`${server.url}${path}`);
      expect(await page.locator("main").textContent(), path).not.toMatch(/Tauben/);
    }
    expect(await sheetNotes()).not.toContain(ids.tauben);
    const sheet = await s.t.lilo.preview({ userId: USER, text: "Wovor habe ich Angst?" });
    expect(JSON.stringify(sheet.request)).not.toMatch(/Tauben/);
    // The next chat turn asks about it; no request to the model holds its words any more.
    const from = s.fake.requests.length;
    await say(s, "Wovor habe ich Angst?");
    const later = s.fake.requests.slice(from);
    expect(later.some((b) => callKind(b) === "chat")).toBe(true);
    for (const b of later) expect(JSON.stringify(b)).not.toMatch(/Tauben/);
  });

  it("forgets everywhere by words from the memories page", async () => {
    await page.goto(`${server.url}/memories`);
    await page.getByText("Überall vergessen, nach Wörtern").click();
    await page.getByRole("searchbox", { name: "Überall vergessen, nach Wörtern" }).fill("Kino");
    await page.getByRole("button", { name: "Suchen…" }).click();
    await page.waitForURL(/\/forget\?q=Kino/);
    expect(await page.locator(".forget-question").textContent()).toContain("Notiz #");
    await page.getByRole("button", { name: "Ja, vergessen" }).click();
    await page.waitForURL(/done=forgotten/);
    expect(s.t.lilo.memory.get(USER, "notes", ids.kino!)).toBeUndefined();
    expect(await item("Kino").count()).toBe(0);
  });

  it("switches a rule off", async () => {
    await page.goto(`${server.url}/rules`);
    await item("kurzen Sätzen").getByRole("button", { name: "Ausschalten" }).click();
    await expect.poll(() => item("kurzen Sätzen").locator(".badge").textContent()).toBe("aus");
    expect(s.t.lilo.rules.get(ruleId)!.enabled).toBe(false);
    await shot("rules");
  });

  it("undoes a correction: the old memory is back", async () => {
    const [entry] = s.t.lilo.corrections.list({ userId: USER });
    expect(entry?.oldText).toBe("Christian wohnt in Berlin");
    expect(s.t.lilo.memory.get(USER, "notes", ids.berlin!)).toBeUndefined();
    await page.goto(`${server.url}/corrections`);
    await shot("corrections");
    await item("Berlin").getByRole("button", { name: "Rückgängig" }).click();
    await expect.poll(() => item("Berlin").locator(".badge").textContent()).toMatch(/^rückgängig gemacht/);
    expect(s.t.lilo.corrections.get(entry!.id)!.undoneAt).not.toBeNull();
    expect(s.t.lilo.memory.get(USER, "notes", ids.berlin!)?.text).toBe("Christian wohnt in Berlin");
  });

  it("renders the usage chart from the ledger of the chat turns above", async () => {
    await page.goto(`${server.url}/usage`);
    await page.locator("#usage-chart[data-rendered=true] canvas").waitFor();
    // The canvas has drawn pixels (not just an empty element): count the non-transparent ones.
    const painted = await page.locator("#usage-chart canvas").evaluate((el) => {
      // The page's canvas, typed by what is used here (the tests compile without the DOM library).
      const c = el as unknown as {
        width: number;
        height: number;
        getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
      };
      const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
      return n;
    });
    expect(painted).toBeGreaterThan(500);
    expect(await page.locator(".u-legend").textContent()).toContain("chat");
    await shot("usage");
  });

  it("the diary page changes the diary: its time set live, today's entry written now, once", async () => {
    await page.goto(`${server.url}/diary`);
    await page.locator('input[name="diary.time"]').fill("21:30");
    await page.locator(".settings-block").getByRole("button", { name: "Speichern" }).click();
    await expect.poll(() => s.t.lilo.settings.get("diary.time")?.value).toBe("21:30");
    expect(s.t.lilo.config.diary.time).toBe("21:30");
    await page.getByRole("button", { name: "Jetzt schreiben" }).click();
    await page.locator(".notice", { hasText: "Tagebucheintrag für 2026-12-02 geschrieben." }).waitFor();
    const [entry] = s.t.lilo.diary.list(USER, 5);
    expect(entry?.day).toBe("2026-12-02");
    expect(await item(entry!.text).count()).toBe(1);
    // The write was redirected to a GET: reloading shows the notice again but writes nothing more.
    expect(new URL(page.url()).pathname).toBe("/diary");
    const before = s.t.lilo.diary.list(USER, 5).length;
    await page.reload();
    await page.locator(".notice", { hasText: "Tagebucheintrag für 2026-12-02 geschrieben." }).waitFor();
    expect(s.t.lilo.diary.list(USER, 5)).toHaveLength(before);
  });

  it("switches the diary off on its page (a live setting, at once)", async () => {
    await page.goto(`${server.url}/diary`);
    await page.locator('select[name="diary.enabled"]').selectOption("false");
    await page.locator(".settings-block").getByRole("button", { name: "Speichern" }).click();
    await expect.poll(() => s.t.lilo.settings.get("diary.enabled")?.value).toBe("false");
    expect(s.t.lilo.config.diary.enabled).toBe(false);
    await page.locator('.setting[data-key="diary.enabled"]').getByRole("button", { name: "Standard" }).waitFor();
  });

  it("shows the other main pages (screenshots for a look at the design)", async () => {
    for (const [path, heading] of [
      ["/important", "Wichtig"],
      ["/profile", "Profil"],
      ["/thoughts", "Gedanken"],
      ["/diary", "Tagebuch"],
      ["/topics", "Themen"],
      ["/receipts", "Belege"],
      ["/settings", "Einstellungen"],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      expect(await page.locator("h1").textContent()).toBe(heading);
      await shot(path.slice(1));
    }
    expect(await page.locator("body").textContent()).toContain("diary.enabled");
    // Receipts are /why's: each answer (as it is now) with what its sheet held, each forgettable by its reference.
    await page.goto(`${server.url}/receipts`);
    const newest = page.locator("li.item").first();
    expect(await newest.locator(".question").textContent()).toBe("Okay.");
    expect(await newest.locator(".used").textContent()).toContain("Christians Tochter heißt Mia");
    expect(await newest.getByRole("link", { name: "Vergessen" }).first().getAttribute("href")).toMatch(/^\/forget\/[A-Z]\d+$/);
  });
});
