/** @jsxImportSource hono/jsx */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Hono, MiddlewareHandler } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { ANY_USER } from "../../core/index.ts";
import { Shell } from "./layout.tsx";
import { fromThisSite } from "./request-origin.ts";
import type { WebDeps, WebEnv } from "./viewer.ts";

/** The session cookie: HttpOnly, SameSite=Strict, path /; Secure when the pages are reached over https (LILO_WEB_URL). */
export const SESSION_COOKIE = "lilo_session";

/** The CSRF token of a session: derived from the session's secret token, so it needs no storage and dies with the session. */
export const csrfToken = (session: string) => createHmac("sha256", session).update("lilo-web-csrf").digest("base64url");

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Login by a one-time link: GET shows a button (so a link preview or a prefetch cannot use the link up),
 * POST uses the link once and sets the session cookie. A refused link gets a clear page saying why.
 */
export function registerLogin(app: Hono<WebEnv>, { lilo, t, sessionHours, publicUrl }: WebDeps): void {
  app.get("/login/:token", (c) => {
    const state = lilo.webAccess.linkState(c.req.param("token"));
    if (state !== "valid") return c.html(<Refused t={t} reason={state} />, 410);
    return c.html(
      <Shell t={t} title={t.loginTitle}>
        <p>{t.loginReady}</p>
        <form method="post" action="/login">
          <input type="hidden" name="token" value={c.req.param("token")} />
          <button type="submit" class="primary">
            {t.loginButton}
          </button>
        </form>
      </Shell>,
    );
  });

  app.post("/login", async (c) => {
    // Login CSRF: another site's page could post its own link here and log the browser in as someone else.
    if (!fromThisSite(c.req.raw, publicUrl))
      return c.html(
        <Shell t={t} title="403">
          <p class="notice error">{t.foreignLogin}</p>
        </Shell>,
        403,
      );
    const body = await c.req.parseBody();
    const r = lilo.webAccess.redeem(String(body.token ?? ""), sessionHours);
    if (!r.ok) return c.html(<Refused t={t} reason={r.reason} />, 410);
    // Max-Age, not Expires: the browser's clock may differ from Lilo's; the session's end is checked on the server anyway.
    // Behind a TLS proxy the browser speaks https, so the cookie must never travel over plain http.
    const secure = publicUrl?.startsWith("https:") === true;
    setCookie(c, SESSION_COOKIE, r.session.token, { httpOnly: true, sameSite: "Strict", path: "/", maxAge: sessionHours * 3600, secure });
    return c.redirect("/memories", 303);
  });
}

/** The page for a link that cannot log in: expired, used or unknown, and how to get a new one. */
function Refused(props: { t: WebDeps["t"]; reason: string }) {
  const { t } = props;
  return (
    <Shell t={t} title={t.loginTitle}>
      <p class="notice error">{t.linkRefused[props.reason] ?? t.linkRefused.unknown}</p>
      <p>{t.linkAgain}</p>
    </Shell>
  );
}

/**
 * Every other page: a live session or the login page (401); every change (any method but GET/HEAD) must
 * carry the session's CSRF token, else 403. Sets the request's viewer.
 */
export function requireSession({ lilo, t }: WebDeps): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    const session = getCookie(c, SESSION_COOKIE);
    const owner = session ? lilo.webAccess.session(session) : undefined;
    if (!session || owner === undefined) {
      if (session) deleteCookie(c, SESSION_COOKIE, { path: "/" });
      return c.html(
        <Shell t={t} title={t.loginTitle}>
          <p>{t.loginIntro}</p>
        </Shell>,
        401,
      );
    }
    const csrf = csrfToken(session);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      const sent = c.req.header("x-csrf-token") ?? String((await c.req.parseBody())._csrf ?? "");
      if (!same(sent, csrf))
        return c.html(
          <Shell t={t} title="403">
            <p class="notice error">{t.forbidden}</p>
          </Shell>,
          403,
        );
    }
    // Settings another process changed (the CLI, the bot) show here at once: re-reading them is cheap.
    lilo.live.refresh();
    const operator = owner === ANY_USER;
    const users = operator ? lilo.knownUsers() : [];
    const fallback = users[0] ?? lilo.config.terminal.userId;
    const userId = operator ? (c.req.query("u") ?? fallback) : (owner as string);
    let settings: boolean | undefined;
    c.set("session", session);
    c.set("viewer", {
      owner,
      operator,
      userId,
      users: operator && !users.includes(userId) ? [userId, ...users] : users,
      nameOf: (id) => lilo.config.persona.userNames[id],
      // Asked only by pages that show a setting: knowing every user reads the chat log's index.
      get settings() {
        return (settings ??= operator || lilo.knownUsers().every((u) => u === userId));
      },
      csrf,
      t,
      timeZone: lilo.config.timezone,
    });
    await next();
  };
}

/** Log out: the session ends in the database and the cookie goes. */
export function registerLogout(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  app.post("/logout", (c) => {
    lilo.webAccess.endSession(c.get("session"));
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.redirect("/", 303);
  });
}
