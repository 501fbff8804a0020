import { InvalidArgumentError, type Command } from "commander";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { HISTORY_FORMATS, type HistoryDryRun, type HistoryFormat } from "../../core/internal.ts";
import { type Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { parseId, userOption, withLilo } from "./shared.ts";

function parseFormat(value: string): HistoryFormat | "auto" {
  if (value === "auto" || (HISTORY_FORMATS as readonly string[]).includes(value)) return value as HistoryFormat | "auto";
  throw new InvalidArgumentError(`unknown format "${value}" (use auto, ${HISTORY_FORMATS.join(", ")})`);
}

interface HistoryOptions {
  format: HistoryFormat | "auto";
  me?: string;
  user?: string;
  apply?: boolean;
}

const AS = { me: "you", other: "another person: about them, never your own facts", assistant: "an assistant: its answers, never Lilo's" } as const;

/** The dry run's report: format, chats, speakers and who they become, dates, what is new. */
function describe(io: CliIO, p: HistoryDryRun): void {
  io.out(`format: ${p.format} (${p.fileName})`);
  io.out(`chats: ${p.chats.length}${p.chats.length <= 5 ? ` (${p.chats.map((c) => `"${c.title}" ${c.messages}`).join(", ")})` : ""}`);
  io.out(
    `messages: ${p.planned.length || p.chats.reduce((n, c) => n + c.messages, 0)}, from ${p.from.slice(0, 10)} to ${p.to.slice(0, 10)}; left out: ${p.skipped} (system lines, media, deleted)`,
  );
  for (const s of p.speakers) io.out(`  ${s.name}: ${s.messages} messages → ${AS[s.as]}`);
  if (p.me === undefined) io.out(`which speaker are you? Run again with --me NAME (one of: ${p.speakers.map((s) => s.name).join(", ")}).`);
  else
    io.out(
      `you are "${p.me}"${p.meFrom === "option" ? "" : ` (${p.meFrom === "export" ? "the export says so" : p.meFrom === "name" ? "the name Lilo knows you by" : "the only person in it"}; --me changes it)`}`,
    );
  io.out(
    `new to the chat log: ${p.newMessages} messages${p.planned.length && p.newMessages < p.planned.length ? ` (${p.planned.length - p.newMessages} are there already)` : ""}`,
  );
}

async function run(lilo: Lilo, io: CliIO, file: string, o: HistoryOptions): Promise<number> {
  const userId = o.user ?? lilo.config.terminal.userId;
  const plan = lilo.history.plan(readFileSync(file), { fileName: basename(file), userId, format: o.format, me: o.me });
  describe(io, plan);
  if (plan.me === undefined) return o.apply ? 1 : 0;
  if (!o.apply) {
    io.out(`dry run: nothing changed. Run \`lilo import-history ${file} --apply${o.me ? ` --me "${o.me}"` : ""}\` to add them.`);
    return 0;
  }
  if (!plan.newMessages) {
    io.out("nothing new: the chat log holds every message of this export already.");
    return 0;
  }
  io.out(`backup: ${await lilo.backup.create()}`);
  const done = lilo.history.apply(plan);
  io.out(`import ${done.id}: added ${done.added} messages to the chat log; recall and the cheat sheet use them from the next message on.`);
  io.out(`undo: lilo import-history undo ${done.id}`);
  return 0;
}

async function undo(lilo: Lilo, io: CliIO, id: number, o: { user?: string; apply?: boolean }): Promise<number> {
  const userId = o.user ?? lilo.config.terminal.userId;
  const r = await lilo.history.undo(userId, id, { apply: !!o.apply });
  const what = `import ${id} (${r.import.format}, ${r.import.fileName}, ${r.import.createdAt.slice(0, 10)})`;
  if (!o.apply) io.out(`${what}: ${r.messages} messages would be forgotten everywhere. Run again with --apply to do it.`);
  else io.out(`${what}: forgot ${r.messages} messages everywhere.`);
  return 0;
}

function list(lilo: Lilo, io: CliIO, o: { user?: string }): number {
  const imports = lilo.history.list(o.user ?? lilo.config.terminal.userId);
  if (!imports.length) io.out("no chat histories imported yet");
  for (const r of imports)
    io.out(
      `${r.id}  ${r.createdAt.slice(0, 10)}  ${r.format.padEnd(8)} ${String(r.messages).padStart(7)} messages  ${r.fileName}${r.undoneAt ? "  (undone)" : ""}`,
    );
  return 0;
}

/**
 * `lilo import-history FILE`: a chat history the person already has, into
 * the chat log (a dry run unless --apply); `list` and `undo ID` beside it.
 */
export function registerImportHistory(program: Command, open: LiloOpener, io: CliIO): void {
  const cmd = program
    .command("import-history")
    .description("bring a chat history along: WhatsApp (.txt/.zip), Telegram (result.json), ChatGPT or Claude (conversations.json); dry run unless --apply")
    .argument("[file]", "the export file")
    .option("--format <format>", `the export's format (auto, ${HISTORY_FORMATS.join(", ")})`, parseFormat, "auto")
    .option("--me <name>", "the speaker who is you (the dry run lists them)")
    .option(...userOption)
    .option("--apply", "import now (a backup is made first)")
    .action((file: string | undefined, o: HistoryOptions) => {
      if (!file) return cmd.help({ error: true });
      return withLilo(open, io, (lilo) => run(lilo, io, file, o), { create: true });
    });
  cmd
    .command("list")
    .description("the chat histories imported, newest first")
    .option(...userOption)
    .action((_o: unknown, sub: Command) => withLilo(open, io, async (lilo) => list(lilo, io, sub.optsWithGlobals<{ user?: string }>())));
  cmd
    .command("undo <id>")
    .description("forget everything an import brought, everywhere (dry run unless --apply)")
    .option(...userOption)
    .option("--apply", "forget now")
    // The parent's --user and --apply are read wherever they stand on the line.
    .action((id: string, _o: unknown, sub: Command) =>
      withLilo(open, io, (lilo) => undo(lilo, io, parseId(id, "import id"), sub.optsWithGlobals<{ user?: string; apply?: boolean }>())),
    );
}
