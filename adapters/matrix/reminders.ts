import type { Lilo } from "../../core/index.ts";
import type { Reminder, Snooze } from "../../core/internal.ts";
import type { MatrixContext, MatrixEventSource } from "./context.ts";

/** The transport a reminder set here rings through (inbox.ts's MATRIX_TRANSPORT; not imported, as inbox.ts reaches the commands and would make a circle). */
const MATRIX_TRANSPORT = "matrix";

type Command = (ctx: MatrixContext, source: MatrixEventSource, arg: string) => Promise<string | void>;

/** What the Matrix reminder commands say besides the core's sentences. */
export const MATRIX_REMINDER_TEXTS = {
  de: {
    title: "**Deine Erinnerungen:**",
    empty: "Du hast keine offenen Erinnerungen. Neu: `!remind morgen 9:00 Tabletten`",
    missed: "Verpasst, weil ich nicht erreichbar war:",
    actions: (id: number) => `_\`!done ${id}\` erledigt · \`!snooze ${id} 10m | 1h | morgen\` verschieben · \`!delete ${id}\` löschen_`,
    listActions: "_Mit der Nummer: `!done 3`, `!snooze 3 1h`, `!delete 3`._",
    usage: "Welche Erinnerung? Schreib ihre Nummer aus `!reminders`, z. B. `!done 3` oder `!snooze 3 1h`.",
  },
  en: {
    title: "**Your reminders:**",
    empty: "You have no reminders waiting. New: `!remind tomorrow 9:00 pills`",
    missed: "Missed while I could not be reached:",
    actions: (id: number) => `_\`!done ${id}\` done · \`!snooze ${id} 10m | 1h | tomorrow\` snooze · \`!delete ${id}\` delete_`,
    listActions: "_With the number: `!done 3`, `!snooze 3 1h`, `!delete 3`._",
    usage: "Which reminder? Write its number from `!reminders`, e.g. `!done 3` or `!snooze 3 1h`.",
  },
} as const;

const SNOOZES: Record<string, Snooze> = { "10m": "10m", "10": "10m", "1h": "1h", "60": "1h", morgen: "tomorrow", tomorrow: "tomorrow" };

const textsOf = (lilo: Lilo) => MATRIX_REMINDER_TEXTS[lilo.config.persona.language];

/** The typed actions under a rung or confirmed reminder: Matrix has no buttons, so each is a command with the reminder's number. */
export function reminderActions(lilo: Lilo, id: number): string {
  return textsOf(lilo).actions(id);
}

/** A reminder as a numbered line (its id, which the typed actions take). */
const line = (lilo: Lilo, r: Reminder) => `- \`${r.id}\` ${lilo.reminders.line(r)}`;

/** "3" or "3 1h" → the reminder's id and the rest. */
function target(arg: string): { id: number; rest: string } | undefined {
  const m = /^#?(\d{1,12})(?:\s+(.*))?$/.exec(arg.trim());
  return m ? { id: Number(m[1]), rest: (m[2] ?? "").trim().toLowerCase() } : undefined;
}

/**
 * `!remind <when> <what>` (the program reads the time, no model call),
 * `!reminders` with each reminder's number, and the typed actions `!done N`,
 * `!snooze N 10m|1h|morgen`, `!delete N` that Telegram has as buttons.
 * Someone else's number is "not found".
 */
export const REMINDER_COMMANDS: Record<string, Command> = {
  remind: async (ctx, s, arg) => {
    const outcome = ctx.lilo.reminders.set({ userId: s.userId, words: arg, transport: MATRIX_TRANSPORT, chatId: s.roomId, source: "command" });
    return outcome.ok ? `${outcome.text}\n\n${reminderActions(ctx.lilo, outcome.reminder.id)}` : outcome.text;
  },
  reminders: async (ctx, s) => {
    const t = textsOf(ctx.lilo);
    const waiting = ctx.lilo.reminders.list(s.userId);
    const missed = ctx.lilo.reminders.missed(s.userId).slice(-5);
    const lines = waiting.length === 0 ? [t.empty] : [t.title, ...waiting.map((r) => line(ctx.lilo, r)), "", t.listActions];
    if (missed.length > 0) lines.push("", t.missed, ...missed.map((r) => `- ${ctx.lilo.reminders.line(r)}`));
    return lines.join("\n");
  },
  done: async (ctx, s, arg) => {
    const to = target(arg);
    return to ? ctx.lilo.reminders.done(s.userId, to.id).text : textsOf(ctx.lilo).usage;
  },
  snooze: async (ctx, s, arg) => {
    const to = target(arg);
    const by = to ? SNOOZES[to.rest || "10m"] : undefined;
    return to && by ? ctx.lilo.reminders.snooze(s.userId, to.id, by).text : textsOf(ctx.lilo).usage;
  },
  delete: async (ctx, s, arg) => {
    const to = target(arg);
    return to ? ctx.lilo.reminders.cancel(s.userId, to.id).text : textsOf(ctx.lilo).usage;
  },
};
