/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import type { Child } from "hono/jsx";
import { LiloError, describeError } from "../../core/index.ts";
import { VECTOR_STORES, type VectorStore } from "../../core/internal.ts";
import { Shell, Notice, type PageName } from "./layout.tsx";
import { href, mayChange, type Viewer, type WebContext, type WebEnv } from "./viewer.ts";

/**
 * The answer to a change: htmx swaps `fragment` in place; a plain form post (no JavaScript) is sent back
 * to `back` (303), so every page also works without htmx.
 */
export function changed(c: WebContext, fragment: () => Child, back: string): Response | Promise<Response> {
  if (c.req.header("hx-request") === "true") return c.html(<>{fragment()}</>);
  return c.redirect(back, 303);
}

/** A full page for the request's viewer. */
export function page(c: WebContext, current: PageName | undefined, title: string, body: Child, scripts?: string[]): Response | Promise<Response> {
  const v = c.get("viewer");
  return c.html(
    <Shell t={v.t} viewer={v} title={title} {...(current ? { current } : {})} {...(scripts ? { scripts } : {})}>
      {body}
    </Shell>,
  );
}

/** Not there, or not the viewer's: the same 404 either way, so ids of other people's entries cannot be probed. */
export function notFound(c: WebContext): Response | Promise<Response> {
  const v = c.get("viewer");
  return c.html(
    <Shell t={v.t} viewer={v} title="404">
      <Notice text={v.t.notFound} kind="error" />
    </Shell>,
    404,
  );
}

/** A change this viewer may not make (a shared setting, for a user of a household): 403 with the reason. */
export function refused(c: WebContext, reason: string): Response | Promise<Response> {
  const v = c.get("viewer");
  return c.html(
    <Shell t={v.t} viewer={v} title="403">
      <Notice text={reason} kind="error" />
    </Shell>,
    403,
  );
}

/**
 * Runs a change; a LiloError (bad input, a refused undo) becomes a 400 with its message, for htmx as an
 * inline notice. Anything else is a bug and goes to Hono's error handler.
 */
export async function attempt(c: WebContext, change: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await change();
  } catch (err) {
    if (!(err instanceof LiloError)) throw err;
    const v = c.get("viewer");
    const text = `${v.t.badInput} ${describeError(err, v.t.lang)}`;
    if (c.req.header("hx-request") === "true") return c.html(<Notice text={text} kind="error" />, 400);
    return c.html(
      <Shell t={v.t} viewer={v} title="400">
        <Notice text={text} kind="error" />
      </Shell>,
      400,
    );
  }
}

/** A route's `:store` as a memory store, or undefined. */
export const storeParam = (s: string | undefined): VectorStore | undefined => VECTOR_STORES.find((x) => x === s);

/** A route's `:id` as a positive whole number, or undefined. */
export const idParam = (s: string | undefined): number | undefined => (s && /^\d{1,15}$/.test(s) ? Number(s) : undefined);

/** A form field as trimmed text ("" when missing). */
export async function field(c: WebContext, name: string): Promise<string> {
  const v = (await c.req.parseBody())[name];
  return typeof v === "string" ? v.trim() : "";
}

/**
 * POST routes that change one of the viewer's items and answer with its row (nothing once it is gone):
 * `${base}/:id` for the action named "" (the edit), `${base}/:id/${name}` for the others. Someone
 * else's item, or a missing one, is a 404.
 */
export function rowActions<T extends { id: number; userId: string }>(
  app: Hono<WebEnv>,
  opts: {
    base: string;
    get(id: number): T | undefined;
    row(v: Viewer, item: T): Child;
    actions: Record<string, (item: T, c: WebContext) => unknown>;
  },
): void {
  for (const [name, act] of Object.entries(opts.actions)) {
    app.post(name ? `${opts.base}/:id/${name}` : `${opts.base}/:id`, (c) =>
      attempt(c, async () => {
        const v = c.get("viewer");
        const id = idParam(c.req.param("id"));
        const item = id === undefined ? undefined : opts.get(id);
        if (!item || !mayChange(v, item.userId)) return notFound(c);
        await act(item, c);
        const now = opts.get(item.id);
        return changed(c, () => (now ? opts.row(v, now) : null), href(v, opts.base));
      }),
    );
  }
}
