import type { Command } from "commander";
import type { CorrectionEntry } from "../../core/internal.ts";
import type { Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { localStamp } from "./local-time.ts";
import { withLilo, parseId, userOption } from "./shared.ts";

/**
 * `lilo corrections …`: the correction log. Every automatic correction shows
 * old text, new text, the message that triggered it, the judge's reason and
 * the time; `undo` restores the note (row and vector).
 */
export function registerCorrections(program: Command, open: LiloOpener, io: CliIO): void {
  const corrections = program.command("corrections").description("the log of automatic memory corrections: list, undo");

  corrections
    .command("list")
    .description("newest corrections first")
    .option(...userOption)
    .option("--all", "every user's corrections")
    .option("-n, --limit <n>", "how many", "20")
    .option("--json", "print JSON")
    .action((o: { user?: string; all?: boolean; limit: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const userId = o.all ? undefined : (o.user ?? lilo.config.terminal.userId);
        const list = lilo.corrections.list({ userId, limit: parseId(o.limit, "--limit") });
        if (o.json) io.out(JSON.stringify(list));
        else if (list.length === 0) io.out("no corrections");
        else for (const c of list) io.out(describe(lilo, c));
        return 0;
      }),
    );

  corrections
    .command("undo <id>")
    .description("take a correction back: the old note returns (row and vector), a rewrite's new note goes")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        const c = await lilo.corrections.undo(parseId(id));
        io.out(`undone correction #${c.id}: ${c.store} #${c.restoredRowId} restored: ${c.oldText}`);
        if (c.newRowId !== null) io.out(`  removed the rewritten ${c.store} #${c.newRowId}: ${c.newText}`);
        return 0;
      }),
    );
}

/** A few lines per entry: what changed, why, triggered by what, when (local time). */
function describe(lilo: Lilo, c: CorrectionEntry): string {
  const local = (iso: string) => localStamp(iso, lilo.config.timezone);
  const lines = [`#${c.id}  ${local(c.createdAt)}  ${c.action}  ${c.store} #${c.rowId}${c.undoneAt ? `  (undone ${local(c.undoneAt)})` : ""}`];
  lines.push(`  old:     ${c.oldText}`);
  if (c.newText !== null) lines.push(`  new:     ${c.newText}${c.newRowId !== null ? `  (#${c.newRowId})` : ""}`);
  lines.push(`  trigger: ${c.triggerText}`);
  if (c.reason) lines.push(`  reason:  ${c.reason}`);
  return lines.join("\n");
}
