import type { ChatLog } from "../../foundation/store/chat-log.ts";
import type { Reminder, RemindersStore } from "../../foundation/store/reminders.ts";
import { REMINDER_TEXTS } from "./reminder-texts.ts";

/** What explaining a reminder reads: its row, the chat log (the message that set it), and how a local time is shown. */
export interface ReminderWhyDeps {
  store: RemindersStore;
  chatLog: ChatLog;
  language: "de" | "en";
  when: (at: Date, timeZone: string) => string;
}

/** The longest quote of the message that set a reminder. */
const QUOTE_MAX = 300;

/**
 * /why on a reminder: where it came from, in one sentence — the person's
 * own message that asked for it (quoted, with its local time), or the way
 * it was set (/remind, the CLI, the pages, an import). `reminderId` names
 * the reminder (a reply to its message); without it, her newest message in
 * the chat is asked about, and it counts only when it is a rung reminder.
 * Undefined when there is no such reminder of this person.
 */
export function explainReminder(deps: ReminderWhyDeps, userId: string, reminderId?: number): string | undefined {
  const r = reminderId !== undefined ? deps.store.get(reminderId) : newestRung(deps, userId);
  if (!r || r.userId !== userId) return undefined;
  const t = REMINDER_TEXTS[deps.language].why;
  const source = r.sourceMessageId !== null ? deps.chatLog.get(r.sourceMessageId) : undefined;
  if (source && source.userId === userId) {
    const text = source.text.length > QUOTE_MAX ? `${source.text.slice(0, QUOTE_MAX)}…` : source.text;
    return t.fromMessage(r.text, deps.when(new Date(source.createdAt), r.timeZone), text);
  }
  return t.fromSource(r.text, deps.when(new Date(r.createdAt), r.timeZone), t.sources[r.source]);
}

/** The reminder her newest message in the chat rang, if it was one. */
function newestRung(deps: ReminderWhyDeps, userId: string): Reminder | undefined {
  const last = deps.chatLog.lastMessage(userId);
  return last && last.role === "assistant" ? deps.store.byMessage(userId, last.id) : undefined;
}
