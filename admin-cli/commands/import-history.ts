import { InvalidArgumentError, type Command } from "commander";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { HISTORY_FORMATS, formatMoney, type HistoryDryRun, type HistoryExtractionProgress, type HistoryFormat } from "../../core/internal.ts";
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

/** The dry run's report: format, chats, speakers and who they become, dates, what is new, what its memories cost. */
function describe(io: CliIO, p: HistoryDryRun, currency: string): void {
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
  if (p.me !== undefined && p.newMessages) io.out(costLine(p.estimate, currency));
}

/** The estimate of the extraction that follows an import: calls, tokens, and the money at the role's price. */
function costLine(e: HistoryDryRun["estimate"], currency: string): string {
  const price = !e.model
    ? "no extraction model is configured"
    : e.cost === undefined
      ? `no price known for ${e.model} (LILO_MODEL_PRICES sets one)`
      : `≈ ${formatMoney(e.cost, currency, "en")} on ${e.model}`;
  return `memories from it, in the background: ${e.calls} extraction calls, about ${e.inputTokens} tokens in and ${e.outputTokens} out; estimated cost ${price}`;
}

/** The extraction of every pending import, with a progress bar; a spent budget pauses it with a sentence. */
async function extract(lilo: Lilo, io: CliIO): Promise<number> {
  if (!lilo.history.extracting().length) {
    io.out("no import waits for its memories");
    return 0;
  }
  const { SingleBar, Presets } = await import("cli-progress");
  const bar = new SingleBar(
    { stream: io.progressStream, format: "memories [{bar}] {value}/{total} messages ({percentage}%) eta {eta}s", noTTYOutput: true, notTTYSchedule: 2000 },
    Presets.shades_classic,
  );
  let current: HistoryExtractionProgress | undefined;
  const outcome = await lilo.history
    .extract({
      onProgress: (p) => {
        if (p.jobId !== current?.jobId) {
          if (current) bar.stop();
          io.out(`import ${p.importId}: reading ${p.total} messages for memories (resumable; the bot's start continues it)`);
          bar.start(p.total, p.done);
        } else bar.update(p.done);
        current = p;
      },
    })
    .finally(() => current && bar.stop());
  for (const id of outcome.finished) io.out(`import ${id}: memories done`);
  for (const id of outcome.busy) io.out(`import ${id}: another running Lilo extracts it now`);
  if (outcome.paused) {
    io.out(`paused: ${outcome.paused}. It goes on once the budget renews or /budget lifts it (lilo import-history extract, or the bot's next start).`);
    return 1;
  }
  return 0;
}

async function run(lilo: Lilo, io: CliIO, file: string, o: HistoryOptions): Promise<number> {
  const userId = o.user ?? lilo.config.terminal.userId;
  const plan = lilo.history.plan(readFileSync(file), { fileName: basename(file), userId, format: o.format, me: o.me });
  describe(io, plan, lilo.config.costs.currency);
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
  // The messages are in; a paused extraction is said and goes on later, so the import itself succeeded.
  await extract(lilo, io);
  return 0;
}

async function undo(lilo: Lilo, io: CliIO, id: number, o: { user?: string; apply?: boolean }): Promise<number> {
  const userId = o.user ?? lilo.config.terminal.userId;
  const r = await lilo.history.undo(userId, id, { apply: !!o.apply });
  const what = `import ${id} (${r.import.format}, ${r.import.fileName}, ${r.import.createdAt.slice(0, 10)})`;
  const memories = `${r.memories} ${r.memories === 1 ? "memory" : "memories"} extracted from them`;
  if (!o.apply) io.out(`${what}: ${r.messages} messages would be forgotten everywhere, with ${memories}. Run again with --apply to do it.`);
  else io.out(`${what}: forgot ${r.messages} messages everywhere, with ${memories}.`);
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
    .command("extract")
    .description("read the imported chats for memories now, continuing where an earlier run stopped (the bot's start does it too)")
    .action(() => withLilo(open, io, (lilo) => extract(lilo, io)));
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
