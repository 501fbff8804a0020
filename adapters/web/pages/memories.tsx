/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import { itemRef, type VectorStore } from "../../../core/internal.ts";
import { Items, PostForm } from "../layout.tsx";
import { ForgetWordsForm, ForgottenNotice } from "./forget.tsx";
import { attempt, changed, field, idParam, notFound, page, storeParam } from "../respond.tsx";
import { href, localTime, type Viewer, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";

/** A memory as the lists show it. */
export interface ShownMemory {
  store: VectorStore;
  id: number;
  text: string;
  createdAt: string;
}

/** One memory in a list: its text and date, edit in place (htmx), forget everywhere via the confirmation page. */
export function MemoryRow({ v, m }: { v: Viewer; m: ShownMemory }) {
  return (
    <li class="item" id={`m-${m.store}-${m.id}`}>
      <p class="text">{m.text}</p>
      <div class="meta">
        <span>
          #{m.id} · {localTime(m.createdAt, v.timeZone)}
        </span>
        <span class="actions">
          <a href={href(v, `/memories/${m.store}/${m.id}`)} hx-get={href(v, `/memories/${m.store}/${m.id}/edit`)} hx-target="closest li" hx-swap="outerHTML">
            {v.t.edit}
          </a>
          <a href={href(v, `/forget/${itemRef(m.store, m.id)}`)} class="danger">
            {v.t.forget}
          </a>
        </span>
      </div>
    </li>
  );
}

/** The edit form of one memory, in place of its row. */
export function MemoryEdit({ v, m }: { v: Viewer; m: ShownMemory }) {
  const action = href(v, `/memories/${m.store}/${m.id}`);
  return (
    <li class="item editing" id={`m-${m.store}-${m.id}`}>
      <PostForm v={v} action={action}>
        <textarea name="text" rows={3} required>
          {m.text}
        </textarea>
        <div class="actions">
          <button type="submit" class="primary">
            {v.t.save}
          </button>
          <a href={href(v, `/memories/${m.store}/${m.id}`)} hx-get={href(v, `/memories/${m.store}/${m.id}/row`)} hx-target="closest li" hx-swap="outerHTML">
            {v.t.cancel}
          </a>
        </div>
      </PostForm>
    </li>
  );
}

/** Memories and important memories: newest, or a search by words and meaning; one memory; edit. */
export function registerMemories(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  const listPage = (store: "notes" | "important") => async (c: WebContext) => {
    const v = c.get("viewer");
    const q = (c.req.query("q") ?? "").trim();
    const found: ShownMemory[] = q
      ? (await lilo.memory.search(q, { store, userId: v.userId, k: 20, minScore: lilo.memory.sheetMinScore() })).map((h) => ({
          store,
          id: h.id,
          text: h.text,
          createdAt: h.createdAt,
        }))
      : lilo.memory.list(v.userId, { store, limit: 100 });
    const path = store === "notes" ? "/memories" : "/important";
    return page(
      c,
      store === "notes" ? "memories" : "important",
      v.t.nav[store === "notes" ? "memories" : "important"],
      <>
        <ForgottenNotice c={c} />
        <form method="get" action={path} class="search" role="search">
          {v.operator && <input type="hidden" name="u" value={v.userId} />}
          <input type="search" name="q" value={q} placeholder={v.t.searchPlaceholder} aria-label={v.t.search} />
          <button type="submit">{v.t.search}</button>
        </form>
        <p class="hint">{q ? v.t.results(found.length, q) : `${v.t.newest} · ${v.t.searchHint}`}</p>
        <Items list={found} empty={v.t.none} each={(m) => <MemoryRow v={v} m={m} />} />
        <details class="panel">
          <summary>{v.t.forgetWords}</summary>
          <ForgetWordsForm v={v} />
        </details>
      </>,
    );
  };
  app.get("/memories", listPage("notes"));
  app.get("/important", listPage("important"));

  const one = (c: WebContext) => {
    const store = storeParam(c.req.param("store"));
    const id = idParam(c.req.param("id"));
    return store && id !== undefined ? lilo.memory.get(c.get("viewer").owner, store, id) : undefined;
  };
  app.get("/memories/:store/:id", (c) => {
    const m = one(c);
    if (!m) return notFound(c);
    const v = c.get("viewer");
    return page(
      c,
      m.store === "important" ? "important" : "memories",
      `#${m.id}`,
      <ul class="items">
        <MemoryEdit v={v} m={m} />
      </ul>,
    );
  });
  app.get("/memories/:store/:id/edit", (c) => {
    const m = one(c);
    return m ? c.html(<MemoryEdit v={c.get("viewer")} m={m} />) : notFound(c);
  });
  app.get("/memories/:store/:id/row", (c) => {
    const m = one(c);
    return m ? c.html(<MemoryRow v={c.get("viewer")} m={m} />) : notFound(c);
  });
  app.post("/memories/:store/:id", (c) =>
    attempt(c, async () => {
      const m = one(c);
      if (!m) return notFound(c);
      const v = c.get("viewer");
      const edited = await lilo.memory.edit(v.owner, m.store, m.id, await field(c, "text"));
      if (!edited) return notFound(c);
      return changed(c, () => <MemoryRow v={v} m={edited} />, href(v, m.store === "important" ? "/important" : "/memories"));
    }),
  );
}
