import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, reportChange, userOption } from "./shared.ts";
import { localStamp } from "./local-time.ts";

/** `lilo topics …`: open follow-up topics and 🧠 concerns (including queued ones); edit, delete, done. */
export function registerTopics(program: Command, open: LiloOpener, io: CliIO): void {
  const topics = program.command("topics").description("follow-up topics and 🧠 concerns");

  topics
    .command("list")
    .description("open topics and queued concerns (--all: also done and dropped)")
    .option(...userOption)
    .option("--all", "include done and dropped topics")
    .option("--json", "print JSON: [{ id, text, kind, status, dueAt, createdAt, origin }], origin { kind, ref } or null")
    .action((o: { user?: string; all?: boolean; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const userId = o.user ?? lilo.config.terminal.userId;
        const statuses = o.all ? (["open", "queued", "done", "dropped"] as const) : (["open", "queued"] as const);
        const list = statuses.flatMap((s) => lilo.topics.list(userId, s));
        if (o.json)
          io.out(
            JSON.stringify(
              list.map(({ id, text, kind, status, dueAt, createdAt, origin }) => ({ id, text, kind, status, dueAt, createdAt, origin: origin ?? null })),
            ),
          );
        else if (list.length === 0) io.out("no open topics");
        else
          for (const t of list) {
            // Where it came from, as `lilo memory show` says it: an imported chat's follow-up names the import to undo.
            const from = t.origin ? `  (from ${t.origin.kind}${t.origin.ref ? ` ${t.origin.ref}` : ""})` : "";
            io.out(`#${t.id}  ${t.status.padEnd(6)}  ${t.kind.padEnd(8)}  due ${localStamp(t.dueAt, lilo.config.timezone)}  ${t.text}${from}`);
          }
        return 0;
      }),
    );

  topics
    .command("edit <id> <text>")
    .description("change a topic's text (what Lilo will ask about)")
    .action((id: string, text: string) =>
      withLilo(open, io, async (lilo) => {
        if (!text.trim()) {
          io.err("error: a topic needs text (use `lilo topics delete` to remove it)");
          return 1;
        }
        return reportChange(io, lilo.topics.edit(parseId(id), text.trim()), `topic #${id} updated`, "topic", id);
      }),
    );

  topics
    .command("done <id>")
    .description("mark an open or queued topic as done: Lilo will not bring it up")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        const n = parseId(id);
        if (lilo.topics.finish(n)) return reportChange(io, true, `topic #${id} done`, "topic", id);
        const t = lilo.topics.get(n);
        if (!t) return reportChange(io, false, "", "topic", id);
        io.err(`error: topic #${id} is already ${t.status}`);
        return 1;
      }),
    );

  topics
    .command("delete <id>")
    .description("delete a topic for good")
    .action((id: string) => withLilo(open, io, async (lilo) => reportChange(io, lilo.topics.delete(parseId(id)), `topic #${id} deleted`, "topic", id)));
}
