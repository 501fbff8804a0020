import type { Recurrence } from "./recurrence.ts";
import type { WhenRefusal } from "./parse-when.ts";
import type { ReminderSource } from "../../foundation/store/reminders.ts";

/** A local day and time as the texts show it. */
export interface ShownTime {
  /** 0 = Sunday. */
  weekday: number;
  day: number;
  month: number;
  year: number;
  /** "09:00". */
  clock: string;
  /** 0 today, 1 tomorrow, 2 the day after, otherwise more or negative. */
  daysAhead: number;
}

/** Why a reminder was not set, changed or found, besides a time that was not taken. */
export type ReminderRefusal = WhenRefusal | "empty" | "too-long" | "too-many" | "group" | "not-found";

const DE_DAYS = ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"];
const EN_DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const EN_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** What Lilo says about reminders: confirmations, the list, the ring itself and every refusal, in both languages. */
export const REMINDER_TEXTS = {
  de: {
    date: (t: ShownTime) => `${DE_DAYS[t.weekday]} ${t.day}.${t.month}.`,
    /** Today, tomorrow and the day after, by how many days ahead. */
    relativeDays: ["heute", "morgen", "übermorgen"],
    rule: (r: Recurrence) => {
      if (r.every === "hours") return r.n === 1 ? "jede Stunde" : `alle ${r.n} Stunden`;
      const at = `um ${r.at}`;
      if (r.every === "day") return `jeden Tag ${at}`;
      if (r.every === "weekday") return `werktags ${at}`;
      if (r.every === "week") return `jeden ${r.days.map((d) => DE_DAYS[d]).join(", ")} ${at}`;
      if (r.every === "month") return `jeden Monat am ${r.day}. ${at}`;
      return `alle ${r.n} Tage ${at}`;
    },
    confirmOnce: (when: string, clock: string, what: string) => `⏰ Ich erinnere dich ${when} um ${clock} an: ${what}`,
    confirmRecurring: (rule: string, first: string, what: string) => `⏰ Ich erinnere dich ${rule} an: ${what} (zum ersten Mal ${first})`,
    ring: (what: string) => `⏰ Du wolltest erinnert werden: ${what}`,
    ringLate: (what: string, due: string) => `⏰ Du wolltest erinnert werden (verspätet, fällig war ${due}): ${what}`,
    done: "✅ Erledigt.",
    doneRecurring: (next: string) => `✅ Erledigt. Nächstes Mal: ${next}`,
    snoozed: (when: string) => `💤 Verschoben auf ${when}.`,
    cancelled: "🗑 Gelöscht.",
    forModel: {
      set: (sentence: string) => `Die Erinnerung ist gespeichert. Bestätige sie mit genau diesem Satz (Tag und Uhrzeit unverändert): ${sentence}`,
      notSet: (sentence: string) =>
        `Es wurde KEINE Erinnerung gespeichert. Sag der Person das mit diesem Grund und frag nach, was fehlt; nenne keine eigene Uhrzeit: ${sentence}`,
    },
    why: {
      fromMessage: (what: string, at: string, message: string) =>
        `🔎 Die Erinnerung „${what}“ hast du mir am ${at} aufgetragen, mit diesen Worten: „${message}“`,
      fromSource: (what: string, at: string, how: string) => `🔎 Die Erinnerung „${what}“ hast du am ${at} ${how} gesetzt.`,
      sources: {
        command: "mit /remind",
        tool: "im Gespräch",
        marker: "im Gespräch",
        cli: "mit lilo reminders add",
        web: "auf meinen Seiten",
        import: "per Import",
      } satisfies Record<ReminderSource, string>,
    },
    buttons: { done: "✅ Erledigt", snooze10: "💤 10 Min", snooze60: "💤 1 Std", tomorrow: "💤 Morgen", delete: "🗑 Löschen" },
    refused: {
      past: "Dieser Zeitpunkt liegt in der Vergangenheit – ich kann nur an Kommendes erinnern.",
      "no-time": "Um wie viel Uhr soll ich dich erinnern? Sag es mit Uhrzeit, z. B. „morgen um 9“.",
      unclear: "Den Zeitpunkt habe ich nicht verstanden. Versuch z. B. „in 20 Minuten“, „morgen um 9“ oder „jeden Montag um 8“.",
      "impossible-date": "Dieses Datum gibt es im Kalender nicht.",
      "too-far": "So weit voraus kann ich nicht erinnern – höchstens fünf Jahre.",
      empty: "Woran soll ich dich erinnern? Schreib es hinter die Zeit, z. B. /remind morgen 9:00 Tabletten.",
      "too-long": "Der Text ist zu lang für eine Erinnerung – bitte kürzer.",
      "too-many": "Du hast schon so viele offene Erinnerungen, wie ich halte – lösche zuerst eine (/reminders).",
      group: "Erinnerungen gibt es nur im privaten Chat mit mir.",
      "not-found": "Diese Erinnerung gibt es nicht (mehr).",
    } satisfies Record<ReminderRefusal, string>,
  },
  en: {
    date: (t: ShownTime) => `${EN_DAYS[t.weekday]} ${t.day} ${EN_MONTHS[t.month - 1]}`,
    /** Today, tomorrow and the day after, by how many days ahead. */
    relativeDays: ["today", "tomorrow", "the day after tomorrow"],
    rule: (r: Recurrence) => {
      if (r.every === "hours") return r.n === 1 ? "every hour" : `every ${r.n} hours`;
      const at = `at ${r.at}`;
      if (r.every === "day") return `every day ${at}`;
      if (r.every === "weekday") return `every weekday ${at}`;
      if (r.every === "week") return `every ${r.days.map((d) => EN_DAYS[d]).join(", ")} ${at}`;
      if (r.every === "month") return `every month on the ${r.day}${ordinal(r.day)} ${at}`;
      return `every ${r.n} days ${at}`;
    },
    confirmOnce: (when: string, clock: string, what: string) => `⏰ I'll remind you ${when} at ${clock}: ${what}`,
    confirmRecurring: (rule: string, first: string, what: string) => `⏰ I'll remind you ${rule}: ${what} (first on ${first})`,
    ring: (what: string) => `⏰ You asked me to remind you: ${what}`,
    ringLate: (what: string, due: string) => `⏰ You asked me to remind you (late, it was due at ${due}): ${what}`,
    done: "✅ Done.",
    doneRecurring: (next: string) => `✅ Done. Next time: ${next}`,
    snoozed: (when: string) => `💤 Moved to ${when}.`,
    cancelled: "🗑 Deleted.",
    forModel: {
      set: (sentence: string) => `The reminder is set. Confirm it with exactly this sentence (day and time unchanged): ${sentence}`,
      notSet: (sentence: string) =>
        `NO reminder was set. Tell the person so with this reason and ask for what is missing; name no time of your own: ${sentence}`,
    },
    why: {
      fromMessage: (what: string, at: string, message: string) => `🔎 You asked me for the reminder “${what}” on ${at}, in these words: “${message}”`,
      fromSource: (what: string, at: string, how: string) => `🔎 You set the reminder “${what}” on ${at} ${how}.`,
      sources: {
        command: "with /remind",
        tool: "in our conversation",
        marker: "in our conversation",
        cli: "with lilo reminders add",
        web: "on my pages",
        import: "by an import",
      } satisfies Record<ReminderSource, string>,
    },
    buttons: { done: "✅ Done", snooze10: "💤 10 min", snooze60: "💤 1 h", tomorrow: "💤 Tomorrow", delete: "🗑 Delete" },
    refused: {
      past: "That time has passed – I can only remind you of what is still ahead.",
      "no-time": "At what time should I remind you? Tell me with a time, e.g. “tomorrow at 9”.",
      unclear: "I did not understand the time. Try e.g. “in 20 minutes”, “tomorrow at 9” or “every Monday at 8”.",
      "impossible-date": "That date is not in the calendar.",
      "too-far": "I cannot remind you that far ahead – five years at most.",
      empty: "What should I remind you of? Write it after the time, e.g. /remind tomorrow 9:00 pills.",
      "too-long": "That text is too long for a reminder – please make it shorter.",
      "too-many": "You already have as many reminders waiting as I keep – delete one first (/reminders).",
      group: "Reminders are only for a private chat with me.",
      "not-found": "That reminder does not exist (any more).",
    } satisfies Record<ReminderRefusal, string>,
  },
};

function ordinal(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  return ["th", "st", "nd", "rd"][n % 10] ?? "th";
}
