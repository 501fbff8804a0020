/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import { Csrf } from "../layout.tsx";
import { attempt, idParam, notFound, page, storeParam } from "../respond.tsx";
import { href, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";

/** Forget with confirmation: the page lists what would go (the forget flow decides), the button forgets exactly that. */
export function registerForget(app: Hono<WebEnv>, { sources }: WebDeps): void {
  const target = (c: WebContext) => {
    const store = storeParam(c.req.param("store"));
    const id = idParam(c.req.param("id"));
    return store && id !== undefined ? { store, id } : undefined;
  };
  // Back to the page the entry was on: thoughts and the diary have their own.
  const listOf = (store: string) => (store === "notes" ? "/memories" : `/${store}`);
  const back = (c: WebContext, store: string) => href(c.get("viewer"), listOf(store), { done: "forgotten" });

  app.get("/forget/:store/:id", async (c) => {
    const v = c.get("viewer");
    const t = target(c);
    const items = t ? await sources.forget.preview(v.owner, t.store, t.id) : [];
    if (!t || items.length === 0) return notFound(c);
    const action = href(v, `/forget/${t.store}/${t.id}`);
    return page(
      c,
      t.store === "important" ? "important" : "memories",
      v.t.forgetTitle,
      <>
        <p>{v.t.forgetIntro}</p>
        <ul class="items">
          {items.map((i) => (
            <li class="item">
              <p class="text">{i.text}</p>
              <div class="meta">
                {i.store} #{i.id}
              </div>
            </li>
          ))}
        </ul>
        <form method="post" action={action} class="confirm">
          <Csrf v={v} />
          {items.map((i) => (
            <input type="hidden" name="item" value={`${i.store}:${i.id}`} />
          ))}
          <button type="submit" class="danger">
            {v.t.forgetConfirm}
          </button>
          <a href={href(v, listOf(t.store))}>{v.t.cancel}</a>
        </form>
      </>,
    );
  });

  app.post("/forget/:store/:id", (c) =>
    attempt(c, async () => {
      const v = c.get("viewer");
      const t = target(c);
      if (!t) return notFound(c);
      const body = await c.req.parseBody({ all: true });
      const raw = ([] as unknown[]).concat(body.item ?? []);
      // Only what the confirmation page listed is forgotten; the flow checks ownership again.
      const items = raw.flatMap((r) => {
        const [store, id] = String(r).split(":");
        const s = storeParam(store);
        const n = idParam(id);
        return s && n !== undefined ? [{ store: s, id: n }] : [];
      });
      const n = await sources.forget.forget(v.owner, items.length ? items : [t]);
      return n === 0 ? notFound(c) : c.redirect(back(c, t.store), 303);
    }),
  );
}
