/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import { Csrf, Items, Notice } from "../layout.tsx";
import { LiveSettings } from "./settings.tsx";
import { page } from "../respond.tsx";
import { href, localTime, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";
import { itemRef } from "../../../core/internal.ts";
import { ForgottenNotice } from "./forget.tsx";

/** Lilo's own writing: thoughts (with how often she reflects) and the diary (on/off, time, write now). */
export function registerJournal(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  app.get("/thoughts", (c) => {
    const v = c.get("viewer");
    const thoughts = lilo.reflection.list(v.userId, 50);
    return page(
      c,
      "thoughts",
      v.t.nav.thoughts,
      <>
        <p class="hint">{v.t.thoughtsIntro}</p>
        <ForgottenNotice c={c} />
        <details class="panel">
          <summary>{v.t.reflection}</summary>
          <LiveSettings c={c} lilo={lilo} prefix="reflection." back={href(v, "/thoughts")} />
        </details>
        <Items
          list={thoughts}
          empty={v.t.none}
          each={(th) => (
            <li class="item">
              {th.parts.map((p) => (
                <div class="part">
                  {p.question && <p class="question">{p.question}</p>}
                  <p class="text">{p.answer}</p>
                </div>
              ))}
              <div class="meta">
                <span>
                  {v.t.origin[th.origin] ?? th.origin} · {localTime(th.createdAt, v.timeZone)}
                </span>
                <a href={href(v, `/forget/${itemRef("thoughts", th.id)}`)} class="danger">
                  {v.t.forget}
                </a>
              </div>
            </li>
          )}
        />
      </>,
    );
  });

  const diaryPage = (c: WebContext, notice?: { text: string; kind: "ok" | "error" }) => {
    const v = c.get("viewer");
    const entries = lilo.diary.list(v.userId, 30);
    return page(
      c,
      "diary",
      v.t.nav.diary,
      <>
        <p class="hint">{v.t.diaryIntro}</p>
        <ForgottenNotice c={c} />
        {notice && <Notice text={notice.text} kind={notice.kind} />}
        <div class="panel">
          <LiveSettings c={c} lilo={lilo} prefix="diary." back={href(v, "/diary")} />
          <form method="post" action={href(v, "/diary/write")}>
            <Csrf v={v} />
            <button type="submit" class="primary">
              {v.t.writeNow}
            </button>
          </form>
        </div>
        <Items
          list={entries}
          empty={v.t.none}
          each={(e) => (
            <li class="item">
              <h3>{e.day}</h3>
              <p class="text">{e.text}</p>
              <div class="meta">
                <span>{localTime(e.createdAt, v.timeZone)}</span>
                <a href={href(v, `/forget/${itemRef("diary", e.id)}`)} class="danger">
                  {v.t.forget}
                </a>
              </div>
            </li>
          )}
        />
      </>,
    );
  };
  app.get("/diary", (c) => {
    const v = c.get("viewer");
    const written = c.req.query("written");
    const skipped = c.req.query("skipped");
    if (written) return diaryPage(c, { text: v.t.diaryWritten(written), kind: "ok" });
    if (skipped) return diaryPage(c, { text: v.t.diaryNone[skipped] ?? skipped, kind: "ok" });
    return diaryPage(c);
  });
  // Post/redirect/get: reloading the page after "write now" must not write a second entry.
  app.post("/diary/write", async (c) => {
    const v = c.get("viewer");
    const r = await lilo.diary.writeNow(v.userId);
    if (r.kind === "written") return c.redirect(href(v, "/diary", { written: r.entry.day }), 303);
    if (r.kind === "skipped") return c.redirect(href(v, "/diary", { skipped: r.reason }), 303);
    return diaryPage(c, { text: v.t.failed(r.error), kind: "error" });
  });
}
