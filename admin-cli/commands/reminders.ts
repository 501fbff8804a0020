import type { Command } from "commander";
import type { Lilo } from "../../core/index.ts";
import type { Reminder } from "../../core/internal.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, userOption } from "./shared.ts";

/** A reminder as `--json` prints it. */
function asJson(lilo: Lilo, r: Reminder) {
  const { id, userId, text, state, dueAt, timeZone, transport, chatId, source, createdAt } = r;
  return {
    id,
    userId,
    text,
    state,
    dueAt,
    local: lilo.reminders.line(r),
    recurrence: r.recurrence ? JSON.parse(r.recurrence) : null,
    timeZone,
    transport,
    chatId,
    source,
    createdAt,
  };
}

/** The chat a reminder set from the CLI goes to: `--chat transport:id`, else the user's push chat. */
function chatOf(lilo: Lilo, userId: string, chat: string | undefined): { transport: string; chatId: string } | undefined {
  if (chat) {
    const i = chat.indexOf(":");
    return i > 0 ? { transport: chat.slice(0, i), chatId: chat.slice(i + 1) } : undefined;
  }
  return lilo.push.target(userId);
}

/** `lilo reminders list|add|cancel`: the reminders a person asked for; the running bot rings them. */
export function registerReminders(program: Command, open: LiloOpener, io: CliIO): void {
  const reminders = program.command("reminders").description("reminders a person asked for (the running bot rings them)");

  reminders
    .command("list")
    .description("reminders that wait, soonest first (--missed: those not sent because Lilo was down too long)")
    .option(...userOption)
    .option("--missed", "list the missed ones instead")
    .option("--json", "print JSON: [{ id, userId, text, state, dueAt, local, recurrence, timeZone, transport, chatId, source, createdAt }]")
    .action((o: { user?: string; missed?: boolean; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const userId = o.user ?? lilo.config.terminal.userId;
        const list = o.missed ? lilo.reminders.missed(userId) : lilo.reminders.list(userId);
        if (o.json) io.out(JSON.stringify(list.map((r) => asJson(lilo, r))));
        else if (list.length === 0) io.out(o.missed ? "no missed reminders" : "no reminders waiting");
        else for (const r of list) io.out(`#${r.id}  ${r.state.padEnd(7)}  ${lilo.reminders.line(r)}`);
        return 0;
      }),
    );

  reminders
    .command("add <words...>")
    .description('set a reminder from words, as in the chat: lilo reminders add "morgen um 9 Tabletten"')
    .option(...userOption)
    .option("--chat <transport:id>", "the chat it rings in (default: the user's push chat), e.g. telegram:111")
    .option("--json", "print the reminder as JSON")
    .action((words: string[], o: { user?: string; chat?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const userId = o.user ?? lilo.config.terminal.userId;
        const chat = chatOf(lilo, userId, o.chat);
        if (!chat) {
          io.err(`error: no chat known for ${userId}: pass --chat telegram:<chat id> (or matrix:<room id>)`);
          return 1;
        }
        const outcome = lilo.reminders.set({ userId, words: words.join(" "), ...chat, source: "cli" });
        if (!outcome.ok) {
          io.err(`error: ${outcome.text}`);
          return 1;
        }
        io.out(o.json ? JSON.stringify(asJson(lilo, outcome.reminder)) : `#${outcome.reminder.id}  ${outcome.text}`);
        return 0;
      }),
    );

  reminders
    .command("cancel <id>")
    .description("delete a reminder (a recurring one with all its occurrences)")
    .option(...userOption)
    .action((id: string, o: { user?: string }) =>
      withLilo(open, io, async (lilo) => {
        const n = parseId(id);
        const userId = o.user ?? lilo.reminders.get(n)?.userId ?? lilo.config.terminal.userId;
        const outcome = lilo.reminders.cancel(userId, n);
        if (!outcome.ok) {
          io.err(`error: no reminder #${id} to cancel`);
          return 1;
        }
        io.out(`reminder #${id} cancelled`);
        return 0;
      }),
    );
}
