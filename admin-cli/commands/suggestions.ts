import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, userOption } from "./shared.ts";
import { localStamp } from "./local-time.ts";

/**
 * `lilo suggestions …`: the `[[VORSCHLAG:]]` ideas Lilo noted for improving
 * herself, for the admin to read and, once handled, delete.
 */
export function registerSuggestions(program: Command, open: LiloOpener, io: CliIO): void {
  const suggestions = program.command("suggestions").description("Lilo's ideas for improving herself ([[VORSCHLAG:]]): list, delete");

  suggestions
    .command("list", { isDefault: true })
    .description("the ideas, newest first (default: every user's)")
    .option(...userOption)
    .option("--json", "print JSON: [{ id, userId, text, createdAt }]")
    .action((o: { user?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const list = lilo.suggestions.list(o.user);
        if (o.json) io.out(JSON.stringify(list));
        else if (list.length === 0) io.out("no suggestions");
        else for (const s of list) io.out(`#${s.id}  ${localStamp(s.createdAt, lilo.config.timezone)}  ${s.userId}  ${s.text}`);
        return 0;
      }),
    );

  suggestions
    .command("delete <id>")
    .description("delete an idea (handled or not wanted)")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        if (lilo.suggestions.delete(parseId(id))) {
          io.out(`suggestion #${id} deleted`);
          return 0;
        }
        io.err(`error: no suggestion with id ${id}`);
        return 1;
      }),
    );
}
