/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import type { Rule } from "../../../core/internal.ts";
import { Items, PostForm, DeleteForm } from "../layout.tsx";
import { field, idParam, notFound, page, rowActions } from "../respond.tsx";
import { href, localTime, mayChange, type Viewer, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";

/** One rule: on/off switch, edit in place, delete (htmx asks first). */
function RuleRow({ v, r, editing }: { v: Viewer; r: Rule; editing?: boolean }) {
  const base = `/rules/${r.id}`;
  return (
    <li class={`item${r.enabled ? "" : " off"}`} id={`rule-${r.id}`}>
      {editing ? (
        <PostForm v={v} action={href(v, base)}>
          <textarea name="text" rows={2} required>
            {r.text}
          </textarea>
          <div class="actions">
            <button type="submit" class="primary">
              {v.t.save}
            </button>
            <a href={href(v, "/rules")} hx-get={href(v, `${base}/row`)} hx-target="closest li" hx-swap="outerHTML">
              {v.t.cancel}
            </a>
          </div>
        </PostForm>
      ) : (
        <>
          <p class="text">{r.text}</p>
          <div class="meta">
            <span class={`badge ${r.enabled ? "on" : "off"}`}>{r.enabled ? v.t.on : v.t.off}</span>
            <span>{localTime(r.updatedAt, v.timeZone)}</span>
            <span class="actions">
              <PostForm v={v} action={href(v, `${base}/toggle`)}>
                <button type="submit" class="link">
                  {r.enabled ? v.t.switchOff : v.t.switchOn}
                </button>
              </PostForm>
              <a href={href(v, `${base}/edit`)} hx-get={href(v, `${base}/edit`)} hx-target="closest li" hx-swap="outerHTML">
                {v.t.edit}
              </a>
              <DeleteForm v={v} action={href(v, `${base}/delete`)} />
            </span>
          </div>
        </>
      )}
    </li>
  );
}

/** Learned rules: list, switch on/off, edit, delete. */
export function registerRules(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  const rule = (c: WebContext) => {
    const id = idParam(c.req.param("id"));
    const r = id === undefined ? undefined : lilo.rules.get(id);
    return r && mayChange(c.get("viewer"), r.userId) ? r : undefined;
  };
  app.get("/rules", (c) => {
    const v = c.get("viewer");
    const rules = lilo.rules.list(v.userId);
    return page(
      c,
      "rules",
      v.t.nav.rules,
      <>
        <p class="hint">{v.t.rulesIntro}</p>
        <Items list={rules} empty={v.t.none} each={(r) => <RuleRow v={v} r={r} />} />
      </>,
    );
  });
  app.get("/rules/:id/row", (c) => {
    const r = rule(c);
    return r ? c.html(<RuleRow v={c.get("viewer")} r={r} />) : notFound(c);
  });
  app.get("/rules/:id/edit", (c) => {
    const r = rule(c);
    if (!r) return notFound(c);
    const v = c.get("viewer");
    const row = <RuleRow v={v} r={r} editing />;
    return c.req.header("hx-request") === "true" ? c.html(row) : page(c, "rules", v.t.nav.rules, <ul class="items">{row}</ul>);
  });
  rowActions(app, {
    base: "/rules",
    get: (id) => lilo.rules.get(id),
    row: (v, r) => <RuleRow v={v} r={r} />,
    actions: {
      "": async (r, c) => lilo.rules.edit(r.id, await field(c, "text")),
      toggle: (r) => lilo.rules.setEnabled(r.id, !r.enabled),
      delete: (r) => lilo.rules.delete(r.id),
    },
  });
}
