/** @jsxImportSource hono/jsx */
import { describeError, LiloError, type Lilo } from "../../../core/index.ts";
import type { SettingRow } from "../../../core/internal.ts";
import { Csrf, Notice } from "../layout.tsx";
import type { Texts } from "../texts.ts";
import { href, type Viewer } from "../viewer.ts";
import { askedValue, labelOf, SettingField, shownValue } from "./setting-fields.tsx";

/** A notice above the settings after a save. */
export type SaveNotice = { text: string; kind: "ok" | "error" };

/**
 * Live settings as one form with one Save (the settings page, or a page's own few: the diary's, the
 * reflection's). "Default" beside a setting changed here takes it back to `.env` through a small form of
 * its own. A viewer who may not change settings sees the values in words.
 */
export function SettingsBlock({ v, settings, back, notice }: { v: Viewer; settings: SettingRow[]; back: string; notice?: SaveNotice | undefined }) {
  const { t } = v;
  if (!v.settings)
    return (
      <div class="settings">
        {settings.map((row) => (
          <div class="setting">
            <Name t={t} row={row} />
            <span class="value">{shownValue(t, row)}</span>
          </div>
        ))}
      </div>
    );
  const action = href(v, "/settings");
  return (
    <div class="settings-block">
      {notice && <Notice text={notice.text} kind={notice.kind} />}
      <form method="post" action={action} hx-post={action} hx-target="closest .settings-block" hx-swap="outerHTML" class="settings">
        <Csrf v={v} />
        <input type="hidden" name="back" value={back} />
        <input type="hidden" name="keys" value={settings.map((r) => r.key).join(",")} />
        {settings.map((row) => (
          <div class="setting" data-key={row.key}>
            <Name t={t} row={row} />
            <span class="field">
              <SettingField v={v} row={row} />
              {row.source === "set" ? (
                <button type="submit" form={resetId(row.key)} class="link" title={t.source.set}>
                  {t.reset}
                </button>
              ) : (
                <span class="source">{t.source[row.source] ?? row.source}</span>
              )}
            </span>
          </div>
        ))}
        <div class="save">
          <button type="submit" class="primary">
            {t.save}
          </button>
        </div>
      </form>
      {settings
        .filter((row) => row.source === "set")
        .map((row) => (
          <form id={resetId(row.key)} method="post" action={href(v, `/settings/${encodeURIComponent(row.key)}`)} hidden>
            <Csrf v={v} />
            <input type="hidden" name="reset" value="1" />
            <input type="hidden" name="back" value={back} />
          </form>
        ))}
    </div>
  );
}

const resetId = (key: string) => `reset-${key.replace(/[^\w-]/g, "-")}`;

/** A setting's name in the viewer's language, its key below it (what `lilo settings set` takes), and a hint for free text. */
function Name({ t, row }: { t: Texts; row: SettingRow }) {
  const hint = t.settingHints[row.key];
  return (
    <span class="name">
      {labelOf(t, row.key)}
      <code>{row.key}</code>
      {hint && <small class="hint">{hint}</small>}
    </span>
  );
}

/** What saving a settings form did: the notice, and after a refusal the values as the form asked for them (to show again). */
export interface Saved {
  notice: SaveNotice;
  asked?: SettingRow[];
}

/**
 * Saves what a settings form asks for, all or nothing: an incomplete choice or a value a setting refuses
 * changes none (what was already set goes back).
 */
export async function saveSettings(lilo: Lilo, t: Texts, settings: SettingRow[], body: Record<string, unknown>): Promise<Saved> {
  const asked = settings.map((row) => ({ row, want: askedValue(t, row, body) }));
  // Shown again after a refusal, so the person corrects one choice instead of making all of them again.
  const askedRows = asked.map(({ row, want }) => (want && "value" in want ? { ...row, value: want.value } : row));
  const refuse = (text: string): Saved => ({ notice: { text, kind: "error" }, asked: askedRows });
  const problems = asked.flatMap(({ want }) => (want && "problem" in want ? [want.problem] : []));
  if (problems.length > 0) return refuse(problems.join(" "));
  const changes = asked.filter(({ row, want }) => want && ("unset" in want || ("value" in want && want.value !== row.value)));
  const done: SettingRow[] = [];
  for (const { row, want } of changes) {
    try {
      if (want && "value" in want) await lilo.settings.set(row.key, want.value);
      else await lilo.settings.unset(row.key);
      done.push(row);
    } catch (err) {
      if (!(err instanceof LiloError)) throw err;
      for (const before of done.reverse()) await (before.source === "set" ? lilo.settings.set(before.key, before.value) : lilo.settings.unset(before.key));
      return refuse(`${t.badInput} ${labelOf(t, row.key)}: ${describeError(err, t.lang)}`);
    }
  }
  return { notice: { text: changes.length > 0 ? t.settingsSaved : t.nothingChanged, kind: "ok" } };
}
