import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANY_USER, ConfigError, fixedClock, silentLogger } from "../../../core/index.ts";
import { createWebApp } from "../../../adapters/web/app.tsx";
import { startWebServer } from "../../../adapters/web/server.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { webLogin } from "./web-session.ts";
import { csrfToken } from "../../../adapters/web/auth.tsx";

/** Lilo's pages over HTTP without a socket (app.request), on a real SQLite file, with a clock the test moves. */
describe("Lilo's pages: login, sessions, CSRF, ownership", () => {
  const clock = fixedClock("2026-12-03T10:00:00Z");
  let t: TestLilo;
  let app: ReturnType<typeof createWebApp>;
  let aliceNote: number;
  let bobNote: number;

  beforeAll(async () => {
    t = makeTestLilo({ LILO_LANGUAGE: "en" }, { clock });
    app = createWebApp({ lilo: t.lilo, logger: silentLogger, sessionHours: 12 });
    const add = async (userId: string, text: string) => {
      const r = await t.lilo.memory.add({ userId, text });
      if (!r.added) throw new Error(`not added: ${text}`);
      return r.id;
    };
    aliceNote = await add("alice", "Alice goes to the cinema on Fridays");
    bobNote = await add("bob", "Bob's secret: he is afraid of pigeons");
  });
  afterAll(() => t.cleanup());

  const login = (owner: string | typeof ANY_USER) => webLogin(app, t.lilo, owner);

  it("without a session every page or change answers 401 with the login page", async () => {
    const page = await app.request("/memories");
    expect(page.status).toBe(401);
    const html = await page.text();
    expect(html).toContain("Open a login link");
    // The persona's language (LILO_LANGUAGE=en here; the browser test runs the German one).
    expect(html).toContain('<html lang="en">');
    expect((await app.request("/rules/1/toggle", { method: "POST" })).status).toBe(401);
    expect((await app.request("/memories", { headers: { cookie: "lilo_session=made-up" } })).status).toBe(401);
  });

  it("a link logs in once: the button page, then a session, the same link again refused with a clear page", async () => {
    const { token } = t.lilo.webAccess.issueLink("alice", 10);
    const button = await app.request(`/login/${token}`);
    expect(button.status).toBe(200);
    expect(await button.text()).toContain("Open Lilo&#39;s pages");
    const first = await app.request("/login", { method: "POST", body: new URLSearchParams({ token }) });
    expect(first.status).toBe(303);
    const again = await app.request("/login", { method: "POST", body: new URLSearchParams({ token }) });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("This login link was used already.");
    expect(await (await app.request(`/login/${token}`)).text()).toContain("was used already");
  });

  it("a stale or made-up link is refused with a page that says why", async () => {
    const { token } = t.lilo.webAccess.issueLink("alice", 10);
    clock.advance(11 * 60_000);
    const res = await app.request("/login", { method: "POST", body: new URLSearchParams({ token }) });
    expect(res.status).toBe(410);
    const html = await res.text();
    expect(html).toContain("This login link has expired.");
    expect(html).toContain("lilo web");
    expect(await (await app.request("/login/not-a-token")).text()).toContain("not valid");
  });

  it("a session ends after its hours", async () => {
    const { cookie } = await login("alice");
    clock.advance(11 * 60_000);
    expect((await app.request("/memories", { headers: { cookie } })).status).toBe(200);
    clock.advance(12 * 3600_000);
    expect((await app.request("/memories", { headers: { cookie } })).status).toBe(401);
  });

  it("a change goes through only with its own session's CSRF token: 403 otherwise, nothing changed", async () => {
    const ruleId = t.lilo.rules.add("alice", "Answer in short sentences");
    const { cookie, csrf } = await login("alice");
    const refused = await app.request(`/rules/${ruleId}/toggle`, { method: "POST", headers: { cookie } });
    expect(refused.status).toBe(403);
    const wrong = await app.request(`/rules/${ruleId}/toggle`, { method: "POST", headers: { cookie }, body: new URLSearchParams({ _csrf: "x".repeat(43) }) });
    expect(wrong.status).toBe(403);
    expect(t.lilo.rules.get(ruleId)!.enabled).toBe(true);
    const ok = await app.request(`/rules/${ruleId}/toggle`, { method: "POST", headers: { cookie }, body: new URLSearchParams({ _csrf: csrf }) });
    expect(ok.status).toBe(303);
    expect(t.lilo.rules.get(ruleId)!.enabled).toBe(false);
    const htmx = await app.request(`/rules/${ruleId}/toggle`, { method: "POST", headers: { cookie, "x-csrf-token": csrf, "hx-request": "true" } });
    expect(await htmx.text()).toContain("Switch off");
    // Another session's token does not fit this one.
    const other = await login("alice");
    expect((await app.request(`/rules/${ruleId}/toggle`, { method: "POST", headers: { cookie, "x-csrf-token": other.csrf } })).status).toBe(403);
  });

  it("user A cannot read or edit user B's memory by id: the same 404 as a missing one", async () => {
    const alice = await login("alice");
    const own = await app.request(`/memories/notes/${aliceNote}`, { headers: { cookie: alice.cookie } });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("cinema on Fridays");
    const other = await app.request(`/memories/notes/${bobNote}`, { headers: { cookie: alice.cookie } });
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain("pigeons");
    expect((await app.request(`/memories/notes/999999`, { headers: { cookie: alice.cookie } })).status).toBe(404);
    const edit = await app.request(`/memories/notes/${bobNote}`, {
      method: "POST",
      headers: { cookie: alice.cookie },
      body: new URLSearchParams({ _csrf: alice.csrf, text: "hacked" }),
    });
    expect(edit.status).toBe(404);
    expect(t.lilo.memory.get("bob", "notes", bobNote)!.text).toContain("pigeons");
    // Alice's search never shows Bob's memories.
    expect(await (await app.request(`/memories?q=pigeons`, { headers: { cookie: alice.cookie } })).text()).not.toContain("afraid of pigeons");
  });

  it("the operator can read any user's memory", async () => {
    const operator = await login(ANY_USER);
    const seen = await app.request(`/memories/notes/${bobNote}?u=bob`, { headers: { cookie: operator.cookie } });
    expect(seen.status).toBe(200);
    expect(await seen.text()).toContain("pigeons");
  });

  it("never shows a secret's value on the settings page", async () => {
    const s = makeTestLilo({ LILO_LANGUAGE: "en", ANTHROPIC_API_KEY: "sk-ant-very-secret-value" });
    try {
      const a = createWebApp({ lilo: s.lilo, logger: silentLogger, sessionHours: 1 });
      const { token } = s.lilo.webAccess.issueLink(ANY_USER, 5);
      const session = /lilo_session=([^;]+)/.exec(
        (await a.request("/login", { method: "POST", body: new URLSearchParams({ token }) })).headers.get("set-cookie")!,
      )![1];
      const html = await (await a.request("/settings", { headers: { cookie: `lilo_session=${session}` } })).text();
      expect(html).toContain("ANTHROPIC_API_KEY");
      expect(html).not.toContain("very-secret");
      expect(html).toContain("diary.enabled");
      // Keys are read-only here: no field to enter one, and a post to one (or to configuration from .env) changes nothing.
      const secrets = html.slice(html.indexOf("Keys and tokens"));
      expect(secrets).not.toMatch(/<input|<form/);
      const cookie = `lilo_session=${session}`;
      const csrf = csrfToken(session!);
      for (const key of ["ANTHROPIC_API_KEY", "LILO_DATA_DIR"]) {
        const res = await a.request(`/settings/${key}`, {
          method: "POST",
          headers: { cookie },
          body: new URLSearchParams({ _csrf: csrf, value: "sk-ant-typed-in" }),
        });
        expect(res.status, key).toBe(404);
      }
      expect(s.lilo.settings.get("ANTHROPIC_API_KEY")?.value).toBe("set");
      expect(JSON.stringify(s.lilo.settings.list())).not.toContain("typed-in");
      // A live setting does change, at once.
      const live = await a.request("/settings/diary.time", { method: "POST", headers: { cookie }, body: new URLSearchParams({ _csrf: csrf, value: "20:15" }) });
      expect(live.status).toBe(303);
      expect(s.lilo.config.diary.time).toBe("20:15");
    } finally {
      await s.cleanup();
    }
  });

  it("live settings apply to everyone: in a household only the operator changes them, a user sees them read-only", async () => {
    const s = makeTestLilo({ LILO_LANGUAGE: "en" });
    try {
      const a = createWebApp({ lilo: s.lilo, logger: silentLogger, sessionHours: 1 });
      s.lilo.recall.importChat([{ userId: "alice", role: "user", text: "Hello", createdAt: "2026-12-01T10:00:00Z" }]);
      // Alone with Lilo, the one user looks after the settings too.
      const alone = await webLogin(a, s.lilo, "alice");
      expect(await (await a.request("/settings", { headers: { cookie: alone.cookie } })).text()).toContain(`name="diary.time"`);
      const own = await a.request("/settings/diary.time", {
        method: "POST",
        headers: { cookie: alone.cookie },
        body: new URLSearchParams({ _csrf: alone.csrf, value: "20:15" }),
      });
      expect(own.status).toBe(303);
      expect(s.lilo.config.diary.time).toBe("20:15");

      s.lilo.recall.importChat([{ userId: "bob", role: "user", text: "Hi", createdAt: "2026-12-01T11:00:00Z" }]);
      const bob = await webLogin(a, s.lilo, "bob");
      for (const path of ["/settings", "/diary"]) {
        const html = await (await a.request(path, { headers: { cookie: bob.cookie } })).text();
        expect(html, path).toContain("diary.time");
        expect(html, path).toContain("20:15");
        expect(html, path).not.toContain(`name="diary.time"`);
      }
      const refused = await a.request("/settings/diary.enabled", {
        method: "POST",
        headers: { cookie: bob.cookie },
        body: new URLSearchParams({ _csrf: bob.csrf, value: "false" }),
      });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain("only the operator changes them");
      expect(s.lilo.config.diary.enabled).toBe(true);

      const operator = await webLogin(a, s.lilo, ANY_USER);
      const ok = await a.request("/settings/diary.enabled", {
        method: "POST",
        headers: { cookie: operator.cookie },
        body: new URLSearchParams({ _csrf: operator.csrf, value: "false" }),
      });
      expect(ok.status).toBe(303);
      expect(s.lilo.config.diary.enabled).toBe(false);
    } finally {
      await s.cleanup();
    }
  });

  it("refuses to listen on an address other than loopback unless the host was given on purpose", async () => {
    await expect(startWebServer(t.lilo, silentLogger, { host: "0.0.0.0", port: 0, hostGiven: false })).rejects.toThrow(ConfigError);
    await expect(startWebServer(t.lilo, silentLogger, { host: "0.0.0.0", port: 0, hostGiven: false })).rejects.toThrow(/--host 0\.0\.0\.0/);
    const given = await startWebServer(t.lilo, silentLogger, { host: "0.0.0.0", port: 0, hostGiven: true });
    await given.close();
    const local = await startWebServer(t.lilo, silentLogger, { host: "127.0.0.1", port: 0, hostGiven: false });
    try {
      const res = await fetch(`${local.url}/memories`);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
      const htmx = await fetch(`${local.url}/static/htmx.min.js`);
      expect(htmx.status).toBe(200);
      expect(await htmx.text()).toContain("htmx");
    } finally {
      await local.close();
    }
  });
});
