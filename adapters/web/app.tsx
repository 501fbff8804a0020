/** @jsxImportSource hono/jsx */
import { Hono } from "hono";
import { describeError, type Lilo, type Logger } from "../../core/index.ts";
import { registerAssets } from "./assets.ts";
import { INSTANCE_PATH } from "./running.ts";
import { registerLogin, registerLogout, requireSession } from "./auth.tsx";
import { Shell } from "./layout.tsx";
import { registerCorrections } from "./pages/corrections.tsx";
import { registerForget } from "./pages/forget.tsx";
import { registerHistory } from "./pages/history.tsx";
import { registerJournal } from "./pages/journal.tsx";
import { registerMemories } from "./pages/memories.tsx";
import { registerProfile } from "./pages/profile.tsx";
import { registerRules } from "./pages/rules.tsx";
import { registerSettings } from "./pages/settings.tsx";
import { registerTopics } from "./pages/topics.tsx";
import { registerReminders } from "./pages/reminders.tsx";
import { registerInsight } from "./pages/usage.tsx";
import { defaultSources, type WebSources } from "./sources.ts";
import { textsFor } from "./texts.ts";
import { href, type WebDeps, type WebEnv } from "./viewer.ts";

/** What the pages are built from. */
export interface WebAppOptions {
  lilo: Lilo;
  logger: Logger;
  /** How long a browser stays logged in. */
  sessionHours: number;
  /** The address the browser uses behind a reverse proxy (LILO_WEB_URL): its origin may post the login, and https makes the cookie Secure. */
  publicUrl?: string | undefined;
  /** This server's random id, answered at INSTANCE_PATH so another process can tell it still runs. */
  instance?: string;
  /** Receipts, usage and forgetting; missing ones come from `defaultSources`. */
  sources?: Partial<WebSources>;
}

// Scripts and styles only from this server (htmx and uPlot are served from their npm packages); no framing; the
// referrer only to this server (a login link carries a token, and the login form's Origin must name this site).
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/**
 * Lilo's pages as a Hono app (`app.fetch(Request) → Response`): a thin adapter whose routes call `Lilo`'s
 * use cases and render HTML; the login and session rules are in auth.tsx.
 */
export function createWebApp(options: WebAppOptions): Hono<WebEnv> {
  const { lilo, logger } = options;
  const t = textsFor(lilo.config.persona.language);
  const deps: WebDeps = { lilo, t, sessionHours: options.sessionHours, publicUrl: options.publicUrl, sources: defaultSources(lilo, options.sources) };
  const app = new Hono<WebEnv>();
  app.use(async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!c.res.headers.has(k)) c.res.headers.set(k, v);
  });
  registerAssets(app);
  if (options.instance) {
    const instance = options.instance;
    app.get(INSTANCE_PATH, (c) => c.text(instance));
  }
  registerLogin(app, deps);
  app.use(requireSession(deps));
  registerLogout(app, deps);
  app.get("/", (c) => c.redirect(href(c.get("viewer"), "/memories"), 303));
  for (const register of [
    registerMemories,
    registerForget,
    registerProfile,
    registerJournal,
    registerTopics,
    registerRules,
    registerCorrections,
    registerHistory,
    registerReminders,
  ])
    register(app, deps);
  registerInsight(app, deps);
  registerSettings(app, deps);
  app.onError((err, c) => {
    logger.error("web page failed", { path: c.req.path, error: describeError(err) });
    return c.html(
      <Shell t={t} title="500">
        <p class="notice error">{t.failed(describeError(err, t.lang))}</p>
      </Shell>,
      500,
    );
  });
  return app;
}
