/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import type { CorrectionEntry } from "../../../core/internal.ts";
import { Items, PostForm } from "../layout.tsx";
import { attempt, changed, idParam, notFound, page } from "../respond.tsx";
import { href, localTime, mayChange, type Viewer, type WebDeps, type WebEnv } from "../viewer.ts";

/** One correction: old text, new text, the message that triggered it, the reason; undo while not undone. */
function CorrectionRow({ v, c }: { v: Viewer; c: CorrectionEntry }) {
  const action = href(v, `/corrections/${c.id}/undo`);
  return (
    <li class={`item${c.undoneAt ? " off" : ""}`} id={`correction-${c.id}`}>
      <dl class="pairs">
        <dt>{v.t.old}</dt>
        <dd class="old">{c.oldText}</dd>
        {c.newText !== null && (
          <>
            <dt>{v.t.new}</dt>
            <dd>{c.newText}</dd>
          </>
        )}
        <dt>{v.t.trigger}</dt>
        <dd>{c.triggerText}</dd>
        {c.reason && (
          <>
            <dt>{v.t.reason}</dt>
            <dd>{c.reason}</dd>
          </>
        )}
      </dl>
      <div class="meta">
        <span>
          {v.t.correctionActions[c.action] ?? c.action} · #{c.rowId} · {localTime(c.createdAt, v.timeZone)}
        </span>
        {c.undoneAt ? (
          <span class="badge off">
            {v.t.undone} {localTime(c.undoneAt, v.timeZone)}
          </span>
        ) : (
          <PostForm v={v} action={action}>
            <button type="submit">{v.t.undo}</button>
          </PostForm>
        )}
      </div>
    </li>
  );
}

/** The correction log with undo. */
export function registerCorrections(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  app.get("/corrections", (c) => {
    const v = c.get("viewer");
    const list = lilo.corrections.list({ userId: v.userId, limit: 100 });
    return page(
      c,
      "corrections",
      v.t.nav.corrections,
      <>
        <p class="hint">{v.t.correctionsIntro}</p>
        <Items list={list} empty={v.t.none} each={(e) => <CorrectionRow v={v} c={e} />} />
      </>,
    );
  });
  app.post("/corrections/:id/undo", (c) =>
    attempt(c, async () => {
      const v = c.get("viewer");
      const id = idParam(c.req.param("id"));
      const entry = id === undefined ? undefined : lilo.corrections.get(id);
      if (!entry || !mayChange(v, entry.userId)) return notFound(c);
      const undone = await lilo.corrections.undo(entry.id);
      return changed(c, () => <CorrectionRow v={v} c={undone} />, href(v, "/corrections"));
    }),
  );
}
