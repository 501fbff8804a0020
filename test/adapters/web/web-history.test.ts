import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixedClock, silentLogger } from "../../../core/index.ts";
import { createWebApp } from "../../../adapters/web/app.tsx";
import { openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { webLogin, type WebSession } from "./web-session.ts";

const EXPORT = readFileSync(join(import.meta.dirname, "../../fixtures/history/whatsapp-android-de.txt"));

/** "Bring your history" on the pages over HTTP (app.request), on a real SQLite file: upload, preview, confirm. */
describe("Lilo's pages: importing a chat history", () => {
  let t: TestLilo;
  let db: Db;
  let app: ReturnType<typeof createWebApp>;
  let jonas: WebSession;
  const messages = () => (db.prepare("SELECT count(*) AS n FROM messages").get() as { n: number }).n;
  const upload = (me = "") => {
    const form = new FormData();
    form.set("_csrf", jonas.csrf);
    form.set("file", new File([EXPORT], "WhatsApp Chat mit Mara.txt", { type: "text/plain" }));
    form.set("me", me);
    return app.request("/history/preview", { method: "POST", headers: { cookie: jonas.cookie }, body: form });
  };
  const tokenOf = (html: string) => /name="upload" value="([^"]+)"/.exec(html)![1]!;

  beforeAll(async () => {
    t = makeTestLilo({ LILO_LANGUAGE: "en", LILO_TIMEZONE: "Europe/Berlin" }, { clock: fixedClock("2026-12-03T10:00:00Z") });
    db = openLiloDatabase(t.lilo.config);
    app = createWebApp({ lilo: t.lilo, logger: silentLogger, sessionHours: 12 });
    jonas = await webLogin(app, t.lilo, "jonas");
  });
  afterAll(async () => {
    db.close();
    await t.cleanup();
  });

  it("offers the upload form on the history page", async () => {
    const html = await (await app.request("/history", { headers: { cookie: jonas.cookie } })).text();
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toContain("Nothing imported yet.");
  });

  it("previews an upload with its format, counts, dates and speakers, asks who the person is, and writes nothing", async () => {
    const res = await upload();
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<dd class="format">whatsapp</dd>');
    expect(html).toContain('<dd class="messages">5</dd>');
    expect(html).toMatch(/2025-11-03 … 2025-11-04/);
    expect(html).toContain("Mara: 3 → another person: about them, never your own facts");
    expect(html).toContain("Which speaker are you?");
    expect(messages()).toBe(0);
  });

  it("shows the extraction's cost estimate once the person is named", async () => {
    const html = await (await upload("Jonas")).text();
    expect(html).toMatch(/Memories from it, in the background: 2 extraction calls, about \d+ tokens; estimated cost none \(no extraction model configured\)/);
    expect(html).toContain("Import now");
  });

  it("imports the previewed upload on the confirmation, and lists the import", async () => {
    const token = tokenOf(await (await upload("Jonas")).text());
    const res = await app.request("/history/import", {
      method: "POST",
      headers: { cookie: jonas.cookie },
      body: new URLSearchParams({ _csrf: jonas.csrf, upload: token, me: "Jonas" }),
    });
    expect(res.status).toBe(303);
    expect(messages()).toBe(5);
    const page = await (await app.request(res.headers.get("location")!, { headers: { cookie: jonas.cookie } })).text();
    expect(page).toContain("Import 1: 5 messages added to the chat log.");
    expect(page).toContain("WhatsApp Chat mit Mara.txt · whatsapp · 5 messages");
  });

  it("refuses a confirmation without the page's security token, importing nothing more", async () => {
    const token = tokenOf(await (await upload("Jonas")).text());
    const res = await app.request("/history/import", {
      method: "POST",
      headers: { cookie: jonas.cookie },
      body: new URLSearchParams({ upload: token, me: "Jonas" }),
    });
    expect(res.status).toBe(403);
    expect(messages()).toBe(5);
  });
});
