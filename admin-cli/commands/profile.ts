import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, userOption } from "./shared.ts";

/**
 * `lilo profile …`: the profile (store 2), by category. Profile facts are
 * never corrected automatically; when Lilo thinks one is wrong she offers
 * the exact `lilo profile delete <id>` command.
 */
export function registerProfile(program: Command, open: LiloOpener, io: CliIO): void {
  const profile = program.command("profile").description("short facts about a user, by category: list, add, edit, delete");

  profile
    .command("list")
    .description("the whole profile, grouped by category")
    .option(...userOption)
    .option("--category <name>", "only this category")
    .option("--json", "print JSON: [{ id, category, text, createdAt }]")
    .action((o: { user?: string; category?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const all = lilo.profile.list(o.user ?? lilo.config.terminal.userId);
        const list = o.category ? all.filter((e) => e.category === o.category!.toLowerCase()) : all;
        if (o.json) {
          io.out(JSON.stringify(list.map(({ id, category, text, createdAt }) => ({ id, category, text, createdAt }))));
          return 0;
        }
        if (list.length === 0) io.out("no profile entries");
        let category = "";
        for (const e of list) {
          if (e.category !== category) io.out(`${(category = e.category)}:`);
          io.out(`  #${e.id}  ${e.text}`);
        }
        return 0;
      }),
    );

  profile
    .command("add <category> <text>")
    .description("add a fact (skipped if the category has it already)")
    .option(...userOption)
    .action((category: string, text: string, o: { user?: string }) =>
      withLilo(open, io, async (lilo) => {
        if (!category.trim() || !text.trim()) {
          io.err("error: category and text must not be empty");
          return 1;
        }
        const r = lilo.profile.add(o.user ?? lilo.config.terminal.userId, category.trim().toLowerCase(), text.trim());
        io.out(r.added ? `added profile #${r.id}` : `already there: profile #${r.id}`);
        return 0;
      }),
    );

  profile
    .command("edit <id> <text>")
    .description("change a fact's text")
    .option(...userOption)
    .action((id: string, text: string, o: { user?: string }) =>
      withLilo(open, io, async (lilo) => {
        const ok = text.trim() !== "" && lilo.profile.update(o.user ?? lilo.config.terminal.userId, parseId(id), text.trim());
        return done(io, ok, `updated profile #${id}`, id);
      }),
    );

  profile
    .command("delete <id>")
    .description("delete a fact")
    .option(...userOption)
    .action((id: string, o: { user?: string }) =>
      withLilo(open, io, async (lilo) => done(io, lilo.profile.delete(o.user ?? lilo.config.terminal.userId, parseId(id)), `deleted profile #${id}`, id)),
    );
}

function done(io: CliIO, ok: boolean, message: string, id: string): number {
  if (ok) {
    io.out(message);
    return 0;
  }
  io.err(`error: no profile entry #${id} for this user (see \`lilo profile list\`, or pass --user)`);
  return 1;
}
