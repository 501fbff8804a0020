import type { Command } from "commander";
import { ANY_USER } from "../../core/index.ts";
import { type DiaryReason } from "../../core/internal.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, userOption } from "./shared.ts";

/** Why no entry was written, in words. */
const REASONS: Record<DiaryReason, string> = {
  "no-conversation": "no conversation in the diary window — Lilo invents no day",
  "nothing-new": "nothing was said since the last entry",
  "empty-answer": "the model's answer was empty",
};

/** `lilo diary …`: list, show, write now, delete (row and vector). */
export function registerDiary(program: Command, open: LiloOpener, io: CliIO): void {
  const diary = program.command("diary").description("Lilo's diary: list, show, write now, delete");

  diary
    .command("list")
    .description("newest entries first")
    .option(...userOption)
    .option("-n, --limit <n>", "how many", "20")
    .option("--json", "print JSON: [{ id, day, text, createdAt }]")
    .action((o: { user?: string; limit: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const entries = lilo.diary.list(o.user ?? lilo.config.terminal.userId, parseId(o.limit, "--limit"));
        if (o.json) io.out(JSON.stringify(entries));
        else if (entries.length === 0) io.out("no diary entries");
        else for (const e of entries) io.out(`#${e.id}  ${e.day}  ${oneLine(e.text, 100)}`);
        return 0;
      }),
    );

  diary
    .command("show <id>")
    .description("one entry in full")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        const entry = lilo.diary.get(parseId(id));
        if (!entry) {
          io.err(`error: no diary entry #${id}`);
          return 1;
        }
        io.out(`#${entry.id}  ${entry.day}  (${entry.userId})\n\n${entry.text}`);
        return 0;
      }),
    );

  diary
    .command("write")
    .description("write diary now (needs a conversation in the last 24 hours)")
    .option(...userOption)
    .action((o: { user?: string }) =>
      withLilo(open, io, async (lilo) => {
        const r = await lilo.diary.writeNow(o.user ?? lilo.config.terminal.userId);
        switch (r.kind) {
          case "written":
            io.out(`wrote diary entry #${r.entry.id} (${r.entry.day})${r.ping ? `, ping: ${r.ping}` : ""}\n\n${r.entry.text}`);
            return 0;
          case "skipped":
            io.out(`no entry: ${REASONS[r.reason]}`);
            return 0;
          case "failed":
            io.err(`error: the diary call failed: ${r.error}`);
            return 1;
        }
      }),
    );

  diary
    .command("delete <id>")
    .description("delete an entry (row and vector)")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        await lilo.memory.forget(ANY_USER, "diary", parseId(id));
        io.out(`deleted diary entry #${id}`);
        return 0;
      }),
    );
}

/** The first `max` characters on one line, for lists. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
