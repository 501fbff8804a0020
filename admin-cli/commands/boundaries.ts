import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, reportChange, userOption } from "./shared.ts";
import { localStamp } from "./local-time.ts";

/**
 * `lilo boundaries …`: topics Lilo never brings up on her own.
 * In chat they arise from "Sprich X nicht mehr an" and the user's yes; here
 * the operator lists, adds and deletes them.
 */
export function registerBoundaries(program: Command, open: LiloOpener, io: CliIO): void {
  const boundaries = program.command("boundaries").description("topics Lilo never brings up on her own: list, add, delete");

  boundaries
    .command("list")
    .description("a user's boundaries")
    .option(...userOption)
    .option("--json", "print JSON: [{ id, text, createdAt }]")
    .action((o: { user?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const list = lilo.boundaries.list(o.user ?? lilo.config.terminal.userId);
        if (o.json) io.out(JSON.stringify(list.map(({ id, text, createdAt }) => ({ id, text, createdAt }))));
        else if (!list.length) io.out("no boundaries");
        else for (const b of list) io.out(`#${b.id}  ${localStamp(b.createdAt, lilo.config.timezone)}  ${b.text}`);
        return 0;
      }),
    );

  boundaries
    .command("add <topic>")
    .description("add a boundary (a topic Lilo must not bring up on her own)")
    .option(...userOption)
    .action((topic: string, o: { user?: string }) =>
      withLilo(open, io, async (lilo) => {
        if (!topic.trim()) {
          io.err("error: a boundary needs a topic");
          return 1;
        }
        io.out(`boundary #${lilo.boundaries.add(o.user ?? lilo.config.terminal.userId, topic.trim())} added`);
        return 0;
      }),
    );

  boundaries
    .command("delete <id>")
    .description("delete a boundary")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => reportChange(io, lilo.boundaries.delete(parseId(id)), `boundary #${id} deleted`, "boundary", id)),
    );
}
