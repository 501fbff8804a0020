/** @jsxImportSource hono/jsx */
import type { Hono } from "hono";
import type { Reminder } from "../../../core/internal.ts";
import { DeleteForm, Items } from "../layout.tsx";
import { page, rowActions } from "../respond.tsx";
import { href, type Viewer, type WebDeps, type WebEnv } from "../viewer.ts";
import type { Lilo } from "../../../core/index.ts";

/** A reminder that still waits (or was missed) has a row; a done or deleted one has none. */
const shown = (r: Reminder) => r.state === "pending" || r.state === "snoozed" || r.state === "missed";

/** One reminder: its next local time, rule and text, where it rings; delete. */
function ReminderRow({ v, lilo, reminder }: { v: Viewer; lilo: Lilo; reminder: Reminder }) {
  if (!shown(reminder)) return null;
  return (
    <li class={`item${reminder.state === "missed" ? " off" : ""}`} id={`reminder-${reminder.id}`}>
      <p>{lilo.reminders.line(reminder)}</p>
      <div class="meta">
        <span>
          {reminder.transport} · <span class="badge">{v.t.reminderState[reminder.state] ?? reminder.state}</span>
        </span>
        <span class="actions">
          <DeleteForm v={v} action={href(v, `/reminders/${reminder.id}/delete`)} />
        </span>
      </div>
    </li>
  );
}

/** The person's reminders: what waits, soonest first, then what was missed while Lilo was down; each can be deleted. */
export function registerReminders(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  app.get("/reminders", (c) => {
    const v = c.get("viewer");
    const list = [...lilo.reminders.list(v.userId), ...lilo.reminders.missed(v.userId).slice(-20)];
    return page(
      c,
      "reminders",
      v.t.nav.reminders,
      <>
        <p class="hint">{v.t.remindersIntro}</p>
        <Items list={list} empty={v.t.none} each={(r) => <ReminderRow v={v} lilo={lilo} reminder={r} />} />
      </>,
    );
  });
  rowActions(app, {
    base: "/reminders",
    get: (id) => lilo.reminders.get(id),
    row: (v, r) => <ReminderRow v={v} lilo={lilo} reminder={r} />,
    actions: { delete: (r) => lilo.reminders.cancel(r.userId, r.id) },
  });
}
