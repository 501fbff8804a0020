/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import { itemRef, type ProfileEntry } from "../../../core/internal.ts";
import { ForgottenNotice } from "./forget.tsx";
import { DeleteForm, InlineEdit } from "../layout.tsx";
import { attempt, changed, field, idParam, notFound, page } from "../respond.tsx";
import { href, type Viewer, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";

/** One profile fact: edit in place, delete (this row), forget (everywhere, after the confirmation page). */
function FactRow({ v, f }: { v: Viewer; f: ProfileEntry }) {
  const base = `/profile/${f.id}`;
  return (
    <li class="item" id={`fact-${f.id}`}>
      <InlineEdit v={v} action={href(v, base)} value={f.text} label={v.t.categories[f.category] ?? f.category} />
      <span class="actions">
        <DeleteForm v={v} action={href(v, `${base}/delete`)} />
        <a href={href(v, `/forget/${itemRef("profile", f.id)}`)} class="danger">
          {v.t.forget}
        </a>
      </span>
    </li>
  );
}

/** The profile by category: each fact editable and deletable. */
export function registerProfile(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  app.get("/profile", (c) => {
    const v = c.get("viewer");
    const byCategory = new Map<string, ProfileEntry[]>();
    for (const f of lilo.profile.list(v.userId)) byCategory.set(f.category, [...(byCategory.get(f.category) ?? []), f]);
    return page(
      c,
      "profile",
      v.t.nav.profile,
      <>
        <p class="hint">{v.t.profileIntro}</p>
        <ForgottenNotice c={c} />
        {byCategory.size === 0 && <p class="empty">{v.t.none}</p>}
        {[...byCategory].map(([category, facts]) => (
          <section class="category">
            <h2>{v.t.categories[category] ?? category}</h2>
            <ul class="items facts">
              {facts.map((f) => (
                <FactRow v={v} f={f} />
              ))}
            </ul>
          </section>
        ))}
      </>,
    );
  });
  // The profile API takes the user with the id: a fact of another user is "not found".
  const fact = (c: WebContext) => {
    const id = idParam(c.req.param("id"));
    const v = c.get("viewer");
    return id === undefined ? undefined : lilo.profile.list(v.userId).find((f) => f.id === id);
  };
  app.post("/profile/:id", (c) =>
    attempt(c, async () => {
      const v = c.get("viewer");
      const f = fact(c);
      if (!f) return notFound(c);
      lilo.profile.update(v.userId, f.id, await field(c, "text"));
      const now = lilo.profile.list(v.userId).find((x) => x.id === f.id) ?? f;
      return changed(c, () => <FactRow v={v} f={now} />, href(v, "/profile"));
    }),
  );
  app.post("/profile/:id/delete", (c) => {
    const v = c.get("viewer");
    const f = fact(c);
    if (!f) return notFound(c);
    lilo.profile.delete(v.userId, f.id);
    return changed(c, () => null, href(v, "/profile"));
  });
}
