import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, reportChange, userOption } from "./shared.ts";
import { localStamp } from "./local-time.ts";

/**
 * `lilo rules …`: the learned rules (store 9). Rules only arise from the
 * user's yes in chat; here they can be listed, switched off and on, edited
 * and deleted — never added.
 */
export function registerRules(program: Command, open: LiloOpener, io: CliIO): void {
  const rules = program.command("rules").description("learned rules (confirmed by the user in chat): list, enable, disable, edit, delete");

  rules
    .command("list")
    .description("all rules of a user; disabled ones are marked")
    .option(...userOption)
    .option("--json", "print JSON: [{ id, text, enabled, createdAt, updatedAt }]")
    .action((o: { user?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const list = lilo.rules.list(o.user ?? lilo.config.terminal.userId);
        if (o.json) io.out(JSON.stringify(list.map(({ id, text, enabled, createdAt, updatedAt }) => ({ id, text, enabled, createdAt, updatedAt }))));
        else if (list.length === 0) io.out("no rules");
        else for (const r of list) io.out(`#${r.id}  ${r.enabled ? "on " : "off"}  ${localStamp(r.createdAt, lilo.config.timezone)}  ${r.text}`);
        return 0;
      }),
    );

  for (const [name, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    rules
      .command(`${name} <id>`)
      .description(enabled ? "put a rule back on the cheat sheet" : "keep a rule but leave it off the cheat sheet")
      .action((id: string) =>
        withLilo(open, io, async (lilo) => {
          const ok = lilo.rules.setEnabled(parseId(id), enabled);
          return reportChange(io, ok, `rule #${id} ${enabled ? "enabled" : "disabled"}`, "rule", id);
        }),
      );
  }

  rules
    .command("edit <id> <text>")
    .description("change a rule's text")
    .action((id: string, text: string) =>
      withLilo(open, io, async (lilo) => {
        if (!text.trim()) {
          io.err("error: a rule needs text (use `lilo rules delete` to remove it)");
          return 1;
        }
        const ok = lilo.rules.edit(parseId(id), text.trim());
        return reportChange(io, ok, `rule #${id} updated`, "rule", id);
      }),
    );

  rules
    .command("delete <id>")
    .description("delete a rule for good")
    .action((id: string) => withLilo(open, io, async (lilo) => reportChange(io, lilo.rules.delete(parseId(id)), `rule #${id} deleted`, "rule", id)));
}
