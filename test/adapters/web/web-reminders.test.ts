import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock, silentLogger } from "../../../core/index.ts";
import { createWebApp } from "../../../adapters/web/app.tsx";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { webLogin } from "./web-session.ts";

/** The reminders tab over HTTP without a socket (app.request), on a real SQLite file. */
describe("Lilo's pages: the reminders tab", () => {
  const clock = fixedClock("2025-12-05T10:00:00Z"); // Friday, 11:00 in Berlin
  let t: TestLilo;
  let app: ReturnType<typeof createWebApp>;
  const set = (userId: string, words: string) => {
    const r = t.lilo.reminders.set({ userId, words, transport: "telegram", chatId: "111", source: "command" });
    if (!r.ok) throw new Error(r.text);
    return r.reminder.id;
  };

  beforeAll(() => {
    t = makeTestLilo({ LILO_LANGUAGE: "de", LILO_TIMEZONE: "Europe/Berlin" }, { clock });
    app = createWebApp({ lilo: t.lilo, logger: silentLogger, sessionHours: 12 });
  });
  afterAll(() => t.cleanup());

  it("lists the person's waiting reminders with their local time and rule, and nobody else's", async () => {
    set("alice", "morgen um 9 Tabletten");
    set("alice", "jeden Montag um 8 Mülltonnen raus");
    set("bob", "morgen um 10 Bobs Geheimnis");
    const { cookie } = await webLogin(app, t.lilo, "alice");
    const html = await (await app.request("/reminders", { headers: { cookie } })).text();
    expect(html).toContain("Sa 6.12., 09:00 – Tabletten");
    expect(html).toContain("Mo 8.12., 08:00 (jeden Mo um 08:00) – Mülltonnen raus");
    expect(html).toContain(">Termine<");
    expect(html).not.toContain("Bobs Geheimnis");
  });

  it("deletes one of the person's reminders; someone else's is a 404 and stays", async () => {
    const mine = set("alice", "übermorgen 18:30 Klempner anrufen");
    const bobs = set("bob", "übermorgen 18:30 Bobs Termin");
    const { cookie, csrf } = await webLogin(app, t.lilo, "alice");
    const post = (id: number) => app.request(`/reminders/${id}/delete`, { method: "POST", headers: { cookie, "x-csrf-token": csrf, "hx-request": "true" } });
    expect((await post(bobs)).status).toBe(404);
    expect(t.lilo.reminders.get(bobs)!.state).toBe("pending");
    const res = await post(mine);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain("Klempner");
    expect(t.lilo.reminders.get(mine)!.state).toBe("cancelled");
    expect(await (await app.request("/reminders", { headers: { cookie } })).text()).not.toContain("Klempner");
  });
});
