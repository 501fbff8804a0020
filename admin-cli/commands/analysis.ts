import { readFileSync, writeFileSync } from "node:fs";
import { PRIVATE_FILE_MODE, makePrivate, type AnalysisOptions, type AnalysisResult } from "../../core/internal.ts";
import { InvalidArgumentError, type Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId } from "./shared.ts";

/** Options shared by preview, run and transcript. */
interface SelectionFlags {
  from?: string;
  to?: string;
  sample?: string;
  keyword?: string[];
  user?: string;
  blueprint?: boolean;
  model?: string;
}

function localDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new InvalidArgumentError(`use a local date YYYY-MM-DD, not "${value}"`);
  }
  return value;
}

/** Repeatable, and each value may hold several keywords separated by commas. */
function collectKeywords(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean),
  ];
}

function withSelection(cmd: Command, mode = true): Command {
  cmd
    .option("--from <date>", "first local day (YYYY-MM-DD)", localDate)
    .option("--to <date>", "last local day (YYYY-MM-DD), inclusive", localDate)
    .option("--sample <n>", "an even sample: first, last, evenly spaced between")
    .option("--keyword <word>", "only conversations containing any keyword (repeatable, or comma-separated)", collectKeywords)
    .option("-u, --user <id>", "only this user's conversations (default: all)");
  if (mode)
    cmd
      .option("--blueprint", "give the analyst Lilo's instruction too (default: blind)")
      .option("--model <provider:model>", "analyst instead of LILO_ANALYSIS_MODEL");
  return cmd;
}

function toOptions(f: SelectionFlags): AnalysisOptions {
  return {
    from: f.from,
    to: f.to,
    sample: f.sample === undefined ? undefined : parseId(f.sample, "--sample"),
    keywords: f.keyword,
    userId: f.user,
    blueprint: !!f.blueprint,
    model: f.model,
  };
}

function printResult(io: CliIO, r: AnalysisResult): void {
  const found = r.quotes.filter((q) => q.verified).length;
  io.out(`analysis ${r.id} saved (lilo analysis show ${r.id})`);
  io.out(`quotes: ${found} verified, ${r.quotes.length - found} not found`);
  io.out("");
  io.out(r.analysis);
}

/** `lilo analysis …`: the outside view (docs/spec.md §10) — preview, run, resume, transcript, saved reports, questions. */
export function registerAnalysis(program: Command, open: LiloOpener, io: CliIO): void {
  const analysis = program.command("analysis").description("outside view: a second model judges Lilo from the transcripts");

  withSelection(analysis.command("preview").description("what a run would read and cost: conversations, characters, tokens, calls"))
    .option("--json", "print JSON")
    .action((f: SelectionFlags & { json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const p = lilo.analysis.preview(toOptions(f));
        if (f.json) {
          io.out(JSON.stringify(p));
          return 0;
        }
        for (const item of p.items) io.out(`${item.header}  (${item.chars} chars)`);
        io.out(`conversations: ${p.conversations}`);
        io.out(`characters: ${p.chars}`);
        io.out(`approx. tokens: ${p.approxTokens}`);
        io.out(`parts: ${p.parts}, calls: ${p.calls}`);
        io.out(`analyst: ${p.analyst} (${p.mode})`);
        io.out(`selection: ${p.selection}`);
        return 0;
      }),
    );

  withSelection(analysis.command("run").description("run the analysis now and save the report (check `preview` first: it costs calls)")).action(
    (f: SelectionFlags) =>
      withLilo(open, io, async (lilo) => {
        const r = await lilo.analysis.run(toOptions(f), (done, total) => io.err(`part ${done}/${total} done`));
        printResult(io, r);
        return 0;
      }),
  );

  analysis
    .command("resume <id>")
    .description("continue an interrupted analysis from its finished parts")
    .option("--model <provider:model>", "another analyst for the remaining calls")
    .action((id: string, f: { model?: string }) =>
      withLilo(open, io, async (lilo) => {
        const r = await lilo.analysis.resume(id, { model: f.model }, (done, total) => io.err(`part ${done}/${total} done`));
        printResult(io, r);
        return 0;
      }),
    );

  withSelection(analysis.command("transcript").description("the transcript the analyst would read, as text"), false)
    .option("--out <file>", "write it to a file instead of printing it")
    .action((f: SelectionFlags & { out?: string }) =>
      withLilo(open, io, async (lilo) => {
        const text = lilo.analysis.transcript(toOptions(f));
        if (!f.out) io.out(text);
        else {
          writeFileSync(f.out, `${text}\n`, { mode: PRIVATE_FILE_MODE });
          makePrivate(f.out);
          io.out(`wrote ${text.length} characters to ${f.out}`);
        }
        return 0;
      }),
    );

  analysis
    .command("list")
    .description("saved analyses, newest first (unfinished ones can be resumed)")
    .option("--json", "print JSON: [{ id, status, summary }]")
    .action((f: { json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const list = lilo.analysis.list();
        if (f.json) io.out(JSON.stringify(list));
        else if (list.length === 0) io.out("no analyses");
        else for (const e of list) io.out(`${e.id}  ${e.status}  ${e.summary}`);
        return 0;
      }),
    );

  analysis
    .command("show <id>")
    .description("print a saved report")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        io.out(lilo.analysis.show(id));
        return 0;
      }),
    );

  analysis
    .command("delete <id>")
    .description("delete a saved report (and an unfinished run's state)")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        if (!lilo.analysis.delete(id)) {
          io.err(`error: no analysis ${id}`);
          return 1;
        }
        io.out(`deleted analysis ${id}`);
        return 0;
      }),
    );

  registerQuestions(analysis, open, io);
}

/** `lilo analysis questions show|edit FILE|reset`: the six questions, kept in settings. */
function registerQuestions(analysis: Command, open: LiloOpener, io: CliIO): void {
  const questions = analysis.command("questions").description("the analyst's questions: show, edit from a file, reset to default");
  questions
    .command("show")
    .description("print the questions, marked (default) or (edited)")
    .action(() =>
      withLilo(open, io, async (lilo) => {
        const q = lilo.analysis.questions.get();
        io.out(`${q.isDefault ? "(default)" : "(edited)"}\n${q.text}`);
        return 0;
      }),
    );
  questions
    .command("edit <file>")
    .description("replace the questions with the text of a file")
    .action((file: string) =>
      withLilo(open, io, async (lilo) => {
        lilo.analysis.questions.set(readFileSync(file, "utf8"));
        io.out("questions saved");
        return 0;
      }),
    );
  questions
    .command("reset")
    .description("go back to the default questions")
    .action(() =>
      withLilo(open, io, async (lilo) => {
        lilo.analysis.questions.reset();
        io.out("questions reset to the default");
        return 0;
      }),
    );
}
