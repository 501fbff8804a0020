/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import type { Topic } from "../../../core/index.ts";
import { PostForm } from "../layout.tsx";
import { attempt, changed, field, idParam, notFound, page } from "../respond.tsx";
import { href, localTime, mayChange, type Viewer, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";

/** One topic: its text (editable), kind, status and due time; done and delete. */
function TopicRow({ v, topic }: { v: Viewer; topic: Topic }) {
  const base = `/topics/${topic.id}`;
  return (
    <li class={`item${topic.status === "done" ? " off" : ""}`} id={`topic-${topic.id}`}>
      <PostForm v={v} action={href(v, base)} class="inline">
        <input name="text" value={topic.text} aria-label={v.t.edit} required />
        <button type="submit">{v.t.save}</button>
      </PostForm>
      <div class="meta">
        <span>
          {topic.kind} · <span class="badge">{v.t.status[topic.status] ?? topic.status}</span> · {v.t.due} {localTime(topic.dueAt, v.timeZone)}
        </span>
        <span class="actions">
          {topic.status !== "done" && (
            <PostForm v={v} action={href(v, `${base}/done`)}>
              <button type="submit" class="link">
                {v.t.markDone}
              </button>
            </PostForm>
          )}
          <PostForm v={v} action={href(v, `${base}/delete`)} confirm={v.t.confirmDelete}>
            <button type="submit" class="link danger">
              {v.t.delete}
            </button>
          </PostForm>
        </span>
      </div>
    </li>
  );
}

/** Topics Lilo wants to come back to: open and queued first, then the recently done. */
export function registerTopics(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  app.get("/topics", (c) => {
    const v = c.get("viewer");
    const topics = [...lilo.topics.list(v.userId, "open"), ...lilo.topics.list(v.userId, "queued"), ...lilo.topics.list(v.userId, "done").slice(-20)];
    return page(
      c,
      "topics",
      v.t.nav.topics,
      <>
        <p class="hint">{v.t.topicsIntro}</p>
        {topics.length === 0 ? (
          <p class="empty">{v.t.none}</p>
        ) : (
          <ul class="items">
            {topics.map((topic) => (
              <TopicRow v={v} topic={topic} />
            ))}
          </ul>
        )}
      </>,
    );
  });
  const topic = (c: WebContext) => {
    const id = idParam(c.req.param("id"));
    const found = id === undefined ? undefined : lilo.topics.get(id);
    return found && mayChange(c.get("viewer"), found.userId) ? found : undefined;
  };
  const after = (c: WebContext, id: number) => {
    const v = c.get("viewer");
    const now = lilo.topics.get(id);
    return changed(c, () => (now ? <TopicRow v={v} topic={now} /> : null), href(v, "/topics"));
  };
  app.post("/topics/:id", (c) =>
    attempt(c, async () => {
      const found = topic(c);
      if (!found) return notFound(c);
      lilo.topics.edit(found.id, await field(c, "text"));
      return after(c, found.id);
    }),
  );
  app.post("/topics/:id/done", (c) => {
    const found = topic(c);
    if (!found) return notFound(c);
    lilo.topics.finish(found.id);
    return after(c, found.id);
  });
  app.post("/topics/:id/delete", (c) => {
    const found = topic(c);
    if (!found) return notFound(c);
    lilo.topics.delete(found.id);
    return after(c, found.id);
  });
}
