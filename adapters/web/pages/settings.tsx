/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import type { SettingRow } from "../../../core/internal.ts";
import { PostForm } from "../layout.tsx";
import { attempt, changed, field, notFound, page, refused } from "../respond.tsx";
import { sameSitePath } from "../safe-path.ts";
import { href, type Viewer, type WebDeps, type WebEnv } from "../viewer.ts";

const BOOLEAN = /^(true|false)$/;

/** One live setting with its form: on/off as a choice, anything else as text; "Default" goes back to `.env`. Read-only for a viewer who may not change settings. */
export function LiveSetting({ v, row }: { v: Viewer; row: SettingRow }) {
  if (!v.settings)
    return (
      <div class="setting">
        <span class="name">
          {v.t.settingLabels[row.key] ?? row.key}
          <code>{row.key}</code>
        </span>
        <span class="value">{BOOLEAN.test(row.value) ? (row.value === "true" ? v.t.on : v.t.off) : row.value}</span>
      </div>
    );
  const action = href(v, `/settings/${encodeURIComponent(row.key)}`);
  return (
    <PostForm v={v} action={action} swap="this" class="setting">
      <label>
        <span class="name">
          {v.t.settingLabels[row.key] ?? row.key}
          <code>{row.key}</code>
        </span>
        {BOOLEAN.test(row.value) ? (
          <select name="value">
            <option value="true" selected={row.value === "true"}>
              {v.t.on}
            </option>
            <option value="false" selected={row.value === "false"}>
              {v.t.off}
            </option>
          </select>
        ) : (
          <input name="value" value={row.value} />
        )}
      </label>
      <span class="actions">
        <button type="submit" class="primary small">
          {v.t.save}
        </button>
        {row.source === "set" ? (
          <button type="submit" name="reset" value="1" class="link" title={v.t.source.set}>
            {v.t.reset}
          </button>
        ) : (
          <span class="source">{v.t.source[row.source] ?? row.source}</span>
        )}
      </span>
    </PostForm>
  );
}

/** Live settings (change at once), configuration from `.env` and secrets — the latter only as "set" / "not set". */
export function registerSettings(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  app.get("/settings", (c) => {
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
        <div class="settings">
          {all.live.map((row) => (
            <LiveSetting v={v} row={row} />
          ))}
        </div>
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
  });

  app.post("/settings/:key", (c) =>
    attempt(c, async () => {
      const v = c.get("viewer");
      const key = c.req.param("key");
      const row = lilo.settings.get(key);
      // Only live settings change here; configuration and secrets stay in `.env`.
      if (!row || !row.live) return notFound(c);
      if (!v.settings) return refused(c, v.t.settingsOperatorOnly);
      const reset = (await field(c, "reset")) === "1";
      const r = reset ? await lilo.settings.unset(row.key) : await lilo.settings.set(row.key, await field(c, "value"));
      if (r.kind !== "changed") return notFound(c);
      const back = await field(c, "back");
      return changed(c, () => <LiveSetting v={v} row={r.row} />, sameSitePath(back) ?? href(v, "/settings"));
    }),
  );
}
