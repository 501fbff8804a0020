/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import type { Topic } from "../../../core/internal.ts";
import { InlineEdit, Items, PostForm, DeleteForm } from "../layout.tsx";
import { field, page, rowActions } from "../respond.tsx";
import { href, localTime, type Viewer, type WebDeps, type WebEnv } from "../viewer.ts";

/** One topic: its text (editable), kind, status and due time; done and delete. */
function TopicRow({ v, topic }: { v: Viewer; topic: Topic }) {
  const base = `/topics/${topic.id}`;
  return (
    <li class={`item${topic.status === "done" ? " off" : ""}`} id={`topic-${topic.id}`}>
      <InlineEdit v={v} action={href(v, base)} value={topic.text} label={v.t.edit} />
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
          <DeleteForm v={v} action={href(v, `${base}/delete`)} />
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
        <Items list={topics} empty={v.t.none} each={(topic) => <TopicRow v={v} topic={topic} />} />
      </>,
    );
  });
  rowActions(app, {
    base: "/topics",
    get: (id) => lilo.topics.get(id),
    row: (v, topic) => <TopicRow v={v} topic={topic} />,
    actions: {
      "": async (topic, c) => lilo.topics.edit(topic.id, await field(c, "text")),
      done: (topic) => lilo.topics.finish(topic.id),
      delete: (topic) => lilo.topics.delete(topic.id),
    },
  });
}
