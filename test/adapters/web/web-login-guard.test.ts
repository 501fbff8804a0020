import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANY_USER, silentLogger } from "../../../core/index.ts";
import { startWebServer, type WebServer } from "../../../adapters/web/server.ts";
import { createWebApp } from "../../../adapters/web/app.tsx";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { webLogin } from "./web-session.ts";

/** The login's guards, over real HTTP: only Lilo's own pages may post a login, and the cookie fits the address. */
describe("Lilo's pages: the login refuses other sites, the cookie is Secure behind https", () => {
  let t: TestLilo;
  let server: WebServer;

  beforeAll(async () => {
    t = makeTestLilo({ LILO_LANGUAGE: "en" });
    server = await startWebServer(t.lilo, silentLogger, { host: "127.0.0.1", port: 0, hostGiven: false });
  });
  afterAll(async () => {
    await server.close();
    await t.cleanup();
  });

  const postLogin = (base: string, token: string, headers: Record<string, string>) =>
    fetch(`${base}/login`, { method: "POST", body: new URLSearchParams({ token }), headers, redirect: "manual" });

  it("refuses a login another site's page posts (Origin, Sec-Fetch-Site or Referer of another site, or an opaque origin) with 403, the link unused", async () => {
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "http://127.0.0.1:1" },
      { "sec-fetch-site": "cross-site" },
      { referer: "https://evil.example/page" },
    ];
    for (const headers of foreign) {
      const { token } = t.lilo.webAccess.issueLink(ANY_USER, 10);
      const res = await postLogin(server.url, token, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(await res.text()).toContain("sent from another website and was refused");
      expect(t.lilo.webAccess.linkState(token)).toBe("valid");
    }
  });

  it("takes a login posted from its own page (same Origin, or Sec-Fetch-Site same-origin with its Referer)", async () => {
    const own = new URL(server.url).origin;
    const ownPages: Record<string, string>[] = [{ origin: own }, { "sec-fetch-site": "same-origin", referer: `${own}/login/x` }];
    for (const headers of ownPages) {
      const { token } = t.lilo.webAccess.issueLink(ANY_USER, 10);
      const res = await postLogin(server.url, token, headers);
      expect(res.status, JSON.stringify(headers)).toBe(303);
      expect(res.headers.get("set-cookie")).toMatch(/^lilo_session=/);
    }
  });

  it("behind a TLS proxy (an https LILO_WEB_URL) takes the proxy's origin and sets the cookie Secure; over plain http it does not", async () => {
    const proxied = await startWebServer(t.lilo, silentLogger, { host: "127.0.0.1", port: 0, hostGiven: false, publicUrl: "https://lilo.example.org/" });
    // The proxy forwards to the server's own address, which it records for other processes.
    const local = t.lilo.webAccess.pages.list().find((p) => p.url === "https://lilo.example.org")!.local;
    try {
      const link = proxied.loginLink(ANY_USER);
      expect(link).toMatch(/^https:\/\/lilo\.example\.org\/login\//);
      const token = link.split("/login/")[1]!;
      // The browser names the public address as the form's origin.
      const res = await postLogin(local, token, { origin: "https://lilo.example.org" });
      expect(res.status).toBe(303);
      expect(res.headers.get("set-cookie")).toMatch(/;\s*Secure/i);
    } finally {
      await proxied.close();
    }
    const { token } = t.lilo.webAccess.issueLink(ANY_USER, 10);
    const plain = await postLogin(server.url, token, {});
    expect(plain.headers.get("set-cookie")).not.toMatch(/Secure/i);
  });

  it("a form's way back off-site (`/\\host`, a tab after `/`) sends the browser to the page's own default instead", async () => {
    const app = createWebApp({ lilo: t.lilo, logger: silentLogger, sessionHours: 1 });
    const { cookie, csrf } = await webLogin(app, t.lilo, ANY_USER);
    for (const back of ["/\\evil.example/", "/\t/evil.example/"]) {
      const res = await app.request("/settings/diary.time", {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams({ _csrf: csrf, value: "20:15", back }),
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("location"), JSON.stringify(back)).toMatch(/^\/settings(\?|$)/);
    }
  });
});
