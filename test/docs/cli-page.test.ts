import { Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { renderCliPage } from "../../admin-cli/docs/cli-page.ts";
import { GENERATED_FILES } from "../../admin-cli/docs/pages.ts";
import { buildProgram } from "../../admin-cli/program.ts";

/** A small command tree with every kind of definition the page reads. */
function sample(): Command {
  const program = new Command("tool").description("a sample tool").version("1.0.0", "-V, --version", "print the version");
  const notes = program.command("notes").description("notes: list, add");
  notes
    .command("add <text> [tags...]")
    .description("add a note")
    .option("-n, --limit <n>", "how many", "20")
    .addOption(new Option("--mode <mode>", "how to add").choices(["fast", "slow"]))
    .requiredOption("--user <id>", "whose note");
  program.command("secret", { hidden: true }).description("not for the docs");
  program.command("plain").addOption(new Option("--debug", "hidden too").hideHelp());
  return program;
}

describe("docs/cli.md, as generated", () => {
  const page = renderCliPage(sample());

  it("gives every command and subcommand a heading one level below its parent", () => {
    expect(page).toMatch(/^## tool notes$/m);
    expect(page).toMatch(/^### tool notes add$/m);
    expect(page).toMatch(/^## tool plain$/m);
  });

  it("lists every command in the index, linked to its heading", () => {
    expect(page).toContain("- [tool notes](#tool-notes) — notes: list, add");
    expect(page).toContain("  - [tool notes add](#tool-notes-add) — add a note");
  });

  it("writes each command's usage line as commander builds it", () => {
    expect(page).toContain("Usage: `tool notes add [options] <text> [tags...]`");
  });

  it("names each argument with whether it is required", () => {
    expect(page).toContain("- `<text>` (required)");
    expect(page).toContain("- `[tags...]` (optional, one or more)");
  });

  it("gives each option a row: flags, default, description", () => {
    expect(page).toContain("| `-n, --limit <n>` | `20` | how many |");
  });

  it("names the values an option is limited to", () => {
    expect(page).toContain("| `--mode <mode>` |  | how to add; one of `fast`, `slow` |");
  });

  it("marks an option commander requires", () => {
    expect(page).toContain("| `--user <id>` |  | whose note; **required** |");
  });

  it("leaves out what `--help` does not list: hidden commands and options, and commander's own help", () => {
    expect(page).not.toContain("secret");
    expect(page).not.toContain("--debug");
    expect(page).not.toContain("--help <");
    expect(page).not.toMatch(/^## tool help/m);
    expect(page).not.toContain("display help for command");
  });

  it("covers every command of `lilo`", () => {
    const lilo = GENERATED_FILES["docs/cli.md"]!();
    const walk = (cmd: Command, path: string[]): string[] => cmd.commands.flatMap((c) => [[...path, c.name()].join(" "), ...walk(c, [...path, c.name()])]);
    const program = buildProgram(
      () => {
        throw new Error("no command runs here");
      },
      { out: () => {}, err: () => {}, progressStream: process.stderr },
    );
    for (const name of walk(program, ["lilo"])) expect(lilo, name).toMatch(new RegExp(`^#+ ${name}$`, "m"));
  });
});
