/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import type { Lilo } from "../../../core/index.ts";
import type { SettingRow } from "../../../core/internal.ts";
import { attempt, changed, field, notFound, page, refused } from "../respond.tsx";
import { sameSitePath } from "../safe-path.ts";
import { href, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";
import { saveSettings, SettingsBlock, type SaveNotice } from "./settings-form.tsx";

/** The live settings a page shows: those whose keys start with `prefix` (all for ""). */
const liveRows = (lilo: Lilo, prefix: string) => lilo.settings.list().live.filter((r) => r.key.startsWith(prefix));

/** A page's own live settings (diary., reflection.) as one form with its Save. */
export function LiveSettings({ c, lilo, prefix, back }: { c: WebContext; lilo: Lilo; prefix: string; back: string }) {
  return <SettingsBlock v={c.get("viewer")} settings={liveRows(lilo, prefix)} back={back} />;
}

/** Live settings (change at once, one Save), configuration from `.env` and secrets — the latter only as "set" / "not set". */
export function registerSettings(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  const settingsPage = (c: WebContext, after?: { notice: SaveNotice; rows: SettingRow[] | undefined }) => {
    const v = c.get("viewer");
    const all = lilo.settings.list();
    return page(
      c,
      "settings",
      v.t.nav.settings,
      <>
        <p class="hint">{v.t.settingsIntro}</p>
        {v.settings ? null : <p class="hint">{v.t.settingsOperatorOnly}</p>}
        <h2>{v.t.live}</h2>
        <SettingsBlock v={v} settings={after?.rows ?? all.live} back={href(v, "/settings")} notice={after?.notice} />
        <h2>{v.t.configured}</h2>
        <table class="rows">
          <tbody>
            {all.config.map((row) => (
              <tr>
                <th>{row.key}</th>
                <td>{row.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>{v.t.secrets}</h2>
        <table class="rows">
          <tbody>
            {all.secrets.map((row) => (
              <tr>
                <th>{row.env}</th>
                <td>{row.value === "set" ? v.t.secretSet : v.t.secretNotSet}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </>,
    );
  };
  app.get("/settings", (c) => settingsPage(c));

  // One form, one Save: every live setting the form shows (its `keys`), all or nothing.
  app.post("/settings", async (c) => {
    const v = c.get("viewer");
    if (!v.settings) return refused(c, v.t.settingsOperatorOnly);
    const body = await c.req.parseBody();
    const keys = new Set(String(body.keys ?? "").split(","));
    const rows = () => lilo.settings.list().live.filter((r) => keys.has(r.key));
    const { notice, asked } = await saveSettings(lilo, v.t, rows(), body);
    const back = sameSitePath(String(body.back ?? "")) ?? href(v, "/settings");
    if (c.req.header("hx-request") === "true") return c.html(<SettingsBlock v={v} settings={asked ?? rows()} back={back} notice={notice} />);
    if (notice.kind === "ok") return c.redirect(back, 303);
    c.status(400);
    return settingsPage(c, { notice, rows: asked });
  });

  // One setting alone (its "Default" button, or a program): `value`, or `reset=1` to go back to `.env`.
  app.post("/settings/:key", (c) =>
    attempt(c, async () => {
      const v = c.get("viewer");
      const row = lilo.settings.get(c.req.param("key"));
      // Only live settings change here; configuration and secrets stay in `.env`.
      if (!row || !row.live) return notFound(c);
      if (!v.settings) return refused(c, v.t.settingsOperatorOnly);
      const reset = (await field(c, "reset")) === "1";
      const r = reset ? await lilo.settings.unset(row.key) : await lilo.settings.set(row.key, await field(c, "value"));
      if (r.kind !== "changed") return notFound(c);
      const back = sameSitePath(await field(c, "back")) ?? href(v, "/settings");
      return changed(c, () => <SettingsBlock v={v} settings={[r.row]} back={back} />, back);
    }),
  );
}
