/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";
import { href, type Viewer } from "./viewer.ts";
import type { Texts } from "./texts.ts";

/** The pages in the navigation, in order. */
const NAV = [
  "memories",
  "important",
  "profile",
  "thoughts",
  "diary",
  "topics",
  "reminders",
  "rules",
  "corrections",
  "receipts",
  "usage",
  "history",
  "settings",
] as const;
export type PageName = (typeof NAV)[number];

/** The document around every page: head, scripts from /static (no CDN), navigation, the operator's user choice. */
export function Shell(props: { t: Texts; title: string; children: Child; viewer?: Viewer; current?: PageName; scripts?: string[] }) {
  const { t, viewer: v } = props;
  return (
    <html lang={t.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false}' />
        <title>{`${props.title} · ${t.title}`}</title>
        <link rel="stylesheet" href="/static/style.css" />
        <script src="/static/htmx.min.js" defer></script>
        <script src="/static/nav.js" defer></script>
        {(props.scripts ?? []).map((s) => (
          <script src={s} defer></script>
        ))}
      </head>
      <body hx-headers={v ? JSON.stringify({ "X-CSRF-Token": v.csrf }) : undefined}>
        <header class="top">
          <a class="brand" href={v ? href(v, "/memories") : "/"}>
            {t.title}
          </a>
          {v && <Account v={v} />}
        </header>
        {v && (
          // The wrapper carries the fades that show, on a phone, that more tabs lie to a side (nav.js sets them).
          <div class="nav-wrap">
            <nav class="nav">
              {NAV.map((name) => (
                <a href={href(v, `/${name}`)} class={name === props.current ? "on" : undefined} aria-current={name === props.current ? "page" : undefined}>
                  {t.nav[name]}
                </a>
              ))}
            </nav>
          </div>
        )}
        <main>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** Who is logged in (by name), log out, and for the operator the user whose memories are shown. */
function Account({ v }: { v: Viewer }) {
  return (
    <div class="account">
      {!v.operator && v.nameOf(v.userId) && <span class="who-name">{v.nameOf(v.userId)}</span>}
      {v.operator && (
        <form method="get" class="who">
          <label>
            {v.t.operator} · {v.t.viewingUser}{" "}
            <select name="u">
              {v.users.map((u) => (
                <option value={u} selected={u === v.userId}>
                  {v.nameOf(u) ?? u}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">{v.t.show}</button>
        </form>
      )}
      <form method="post" action="/logout">
        <input type="hidden" name="_csrf" value={v.csrf} />
        <button type="submit" class="link">
          {v.t.logout}
        </button>
      </form>
    </div>
  );
}

/** A short message above a page's content (after a change without htmx). */
export function Notice(props: { text: string | undefined; kind?: "ok" | "error" }) {
  if (!props.text) return null;
  return (
    <p class={`notice ${props.kind ?? "ok"}`} role="status">
      {props.text}
    </p>
  );
}

/** The hidden CSRF field every form that changes something carries. */
export const Csrf = ({ v }: { v: Viewer }) => <input type="hidden" name="_csrf" value={v.csrf} />;

/**
 * A form that changes something: posts to `action` (already an `href`), carries the CSRF field, and with
 * htmx replaces the closest list item (or itself) with the answer; without JavaScript it posts normally.
 */
export function PostForm(props: { v: Viewer; action: string; children: Child; swap?: "closest li" | "this"; confirm?: string; class?: string }) {
  return (
    <form
      method="post"
      action={props.action}
      hx-post={props.action}
      hx-target={props.swap ?? "closest li"}
      hx-swap="outerHTML"
      hx-confirm={props.confirm}
      class={props.class}
    >
      <Csrf v={props.v} />
      {props.children}
    </form>
  );
}

/** The red "delete" link of a list item, asking first. */
export function DeleteForm(props: { v: Viewer; action: string }) {
  return (
    <PostForm v={props.v} action={props.action} confirm={props.v.t.confirmDelete}>
      <button type="submit" class="link danger">
        {props.v.t.delete}
      </button>
    </PostForm>
  );
}

/** A page's list of items (`each` renders one `<li>`), or the `empty` line when there are none. */
export function Items<T>(props: { list: T[]; empty: string; each: (item: T) => Child }) {
  if (props.list.length === 0) return <p class="empty">{props.empty}</p>;
  return <ul class="items">{props.list.map(props.each)}</ul>;
}

/** A one-line text edited in place: the text field and its save button. */
export function InlineEdit(props: { v: Viewer; action: string; value: string; label: string }) {
  return (
    <PostForm v={props.v} action={props.action} class="inline">
      <input name="text" value={props.value} aria-label={props.label} required />
      <button type="submit">{props.v.t.save}</button>
    </PostForm>
  );
}
