import { z } from "zod";
import { fetchMarker, type FetchOutcome } from "../markers/marker.ts";

/** The payload's parts: the person's words for the time, then what to remind of. */
const SEPARATOR = "|";

/**
 * [REMIND: when | what] and its native tool set_reminder: the model passes
 * the person's own words for the time, never a time it computed; the
 * program reads them (parse-when.ts), sets the reminder for the chat the
 * message came from, and hands back its confirmation with the resolved
 * local day and time (or why not, e.g. an unclear time to ask back). The
 * follow-up call relays that sentence.
 */
export const REMIND_MARKER = fetchMarker({
  name: "REMIND",
  aliases: ["ERINNERUNG", "ERINNERN", "REMINDER", "SETREMINDER"],
  kind: "fetch",
  offer: "chat",
  teachOrder: 85,
  tool: {
    name: "set_reminder",
    description:
      "Set a reminder the person asked for. Pass their own words for the time (e.g. 'tomorrow at 9', 'jeden Montag um 8'); never compute a date yourself. The result is the confirmation (or why it was not set): pass it on as it is.",
    args: z
      .object({
        when: z.string().trim().min(1).describe("the person's own words for when, e.g. 'morgen um 9' or 'every weekday at 7:30'"),
        what: z.string().trim().min(1).describe("what to remind them of, short, e.g. 'Tabletten nehmen'"),
      })
      .strict(),
    payload: (args) => `${String(args.when)} ${SEPARATOR} ${String(args.what)}`,
  },
  instruction: {
    de: "Bittet dich dein Gegenüber, an etwas zu erinnern: [REMIND: Zeitpunkt in seinen eigenen Worten | woran] – z. B. [REMIND: morgen um 9 | Tabletten nehmen]. Rechne keine Uhrzeit selbst aus; du bekommst die Bestätigung zurück und gibst sie weiter.",
    en: "When the person asks you to remind them of something: [REMIND: the time in their own words | what] – e.g. [REMIND: tomorrow at 9 | take the pills]. Never compute the time yourself; you get the confirmation back and pass it on.",
  },
  async fetch(marker, ctx, deps): Promise<FetchOutcome> {
    if (!deps.reminders) return { marker, status: "unavailable" };
    const cut = marker.payload.indexOf(SEPARATOR);
    const when = cut < 0 ? marker.payload : marker.payload.slice(0, cut);
    const what = cut < 0 ? "" : marker.payload.slice(cut + 1);
    const outcome = deps.reminders.fromChat(ctx.userId, ctx.conversationId, when.trim(), what.trim());
    return { marker, kind: "reminder", status: outcome.ok ? "found" : "empty", text: outcome.text };
  },
});
