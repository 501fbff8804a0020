import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, userOption, parseId } from "./shared.ts";
import { localStamp } from "./local-time.ts";

/**
 * `lilo push log|target`: what Lilo sent on her own and where it goes. Sending
 * needs the running bot's connection, so a test push is `/push test` in chat.
 */
export function registerPush(program: Command, open: LiloOpener, io: CliIO): void {
  const push = program.command("push").description("pushes Lilo sends on her own (greetings, 🧠 concerns, diary pings)");

  push
    .command("log")
    .description("the push log: every push with its outcome (sent, failed, not-opted-in, quiet-hours, no-transport); queued pushes wait for the running bot")
    .option(...userOption)
    .option("--all", "every user")
    .option("-n, --limit <n>", "how many", "20")
    .option("--json", "print JSON")
    .action((o: { user?: string; all?: boolean; limit: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const entries = lilo.push.history(o.all ? undefined : (o.user ?? lilo.config.terminal.userId), parseId(o.limit, "--limit"));
        if (o.json) {
          io.out(JSON.stringify(entries));
          return 0;
        }
        const queued = lilo.push.queued();
        // Written by the CLI or a job, not delivered yet: the running bot sends them (README, "Push").
        if (queued > 0) io.out(`${queued} push${queued === 1 ? "" : "es"} queued for the running bot`);
        if (entries.length === 0) io.out("no pushes yet");
        else
          for (const e of entries)
            io.out(
              `#${e.id}  ${localStamp(e.createdAt, lilo.config.timezone)}  ${e.kind.padEnd(8)}  ${e.outcome.padEnd(12)}  ${e.transport ?? "-"}  ${e.text.slice(0, 80)}${e.error ? `  (${e.error})` : ""}`,
            );
        return 0;
      }),
    );

  push
    .command("target")
    .description("where a user's pushes go (opt in with /push on in the chat)")
    .option(...userOption)
    .action((o: { user?: string }) =>
      withLilo(open, io, async (lilo) => {
        const userId = o.user ?? lilo.config.terminal.userId;
        const t = lilo.push.target(userId);
        io.out(t ? `${userId}: ${t.transport} chat ${t.chatId}` : `${userId} has not opted in to pushes (send /push on in a chat)`);
        return 0;
      }),
    );
}
