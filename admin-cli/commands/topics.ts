import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, userOption } from "./shared.ts";
import { localStamp } from "./diary.ts";

/** `lilo topics list`: open follow-up topics and 🧠 concerns, including queued ones. */
export function registerTopics(program: Command, open: LiloOpener, io: CliIO): void {
  const topics = program.command("topics").description("follow-up topics and 🧠 concerns");

  topics
    .command("list")
    .description("open topics and queued concerns (--all: also done and dropped)")
    .option(...userOption)
    .option("--all", "include done and dropped topics")
    .option("--json", "print JSON: [{ id, text, kind, status, dueAt, createdAt }]")
    .action((o: { user?: string; all?: boolean; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const userId = o.user ?? lilo.config.terminal.userId;
        const statuses = o.all ? (["open", "queued", "done", "dropped"] as const) : (["open", "queued"] as const);
        const list = statuses.flatMap((s) => lilo.stores.topics.list(userId, s));
        if (o.json) io.out(JSON.stringify(list.map(({ id, text, kind, status, dueAt, createdAt }) => ({ id, text, kind, status, dueAt, createdAt }))));
        else if (list.length === 0) io.out("no open topics");
        else for (const t of list) io.out(`#${t.id}  ${t.status.padEnd(6)}  ${t.kind.padEnd(8)}  due ${localStamp(t.dueAt, lilo.config.timezone)}  ${t.text}`);
        return 0;
      }),
    );
}
