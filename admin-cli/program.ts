import { Command } from "commander";
import { redactSecrets } from "../core/internal.ts";
import type { CliIO, LiloOpener } from "./context.ts";
import { registerMemory } from "./commands/memory.ts";
import { registerMaintenance } from "./commands/maintenance.ts";
import { registerModel } from "./commands/model.ts";
import { registerPreview } from "./commands/preview.ts";
import { registerPush } from "./commands/push.ts";
import { registerRules } from "./commands/rules.ts";
import { registerCorrections } from "./commands/corrections.ts";
import { registerProfile } from "./commands/profile.ts";
import { registerDiary } from "./commands/diary.ts";
import { registerThoughts } from "./commands/thoughts.ts";
import { registerTopics } from "./commands/topics.ts";
import { registerReminders } from "./commands/reminders.ts";
import { registerGreet } from "./commands/greet.ts";
import { registerAnalysis } from "./commands/analysis.ts";
import { registerBackup } from "./commands/backup.ts";
import { registerEncrypt } from "./commands/encrypt.ts";
import { registerExport } from "./commands/export.ts";
import { registerImport } from "./commands/import.ts";
import { registerImportHistory } from "./commands/import-history.ts";
import { registerDedupe } from "./commands/dedupe.ts";
import { registerSettings } from "./commands/settings.ts";
import { registerStatus } from "./commands/status.ts";
import { registerUsage } from "./commands/usage.ts";
import { registerLookups } from "./commands/lookups.ts";
import { registerSuggestions } from "./commands/suggestions.ts";
import { registerWeb } from "./commands/web.ts";
import { registerService } from "./commands/service.ts";
import { registerSetup } from "./commands/setup.ts";
import { registerForget } from "./commands/forget.ts";
import { registerBoundaries } from "./commands/boundaries.ts";
import { version } from "./version.ts";

/** The whole `lilo` command tree; `open` and `io` are injected so tests run it in-process. */
export function buildProgram(open: LiloOpener, rawIO: CliIO): Command {
  // Error output can quote URLs and provider messages: it passes the one redaction. Normal output is data
  // (an export must stay byte-exact), and it never holds configuration.
  const io: CliIO = { ...rawIO, err: (text) => rawIO.err(redactSecrets(text)) };
  const program = new Command("lilo")
    .description("Administer Lilo: memory, rules, corrections, maintenance")
    .version(version(), "-V, --version", "print the version")
    .configureOutput({
      writeOut: (s) => io.out(s.trimEnd()),
      writeErr: (s) => io.err(s.trimEnd()),
      // A typo is one line with its suggestion ("… 'memroy'. Did you mean memory?"); the usage line follows.
      outputError: (s, write) => write(s.replace(/\n\(Did you mean (.+)\?\)/, ". Did you mean $1?")),
    });
  // Every command is registered here, once, in help order.
  registerSetup(program, io);
  registerMemory(program, open, io);
  registerModel(program, open, io);
  registerPreview(program, open, io);
  registerPush(program, open, io);
  registerProfile(program, open, io);
  registerRules(program, open, io);
  registerCorrections(program, open, io);
  registerDiary(program, open, io);
  registerThoughts(program, open, io);
  registerTopics(program, open, io);
  registerReminders(program, open, io);
  registerGreet(program, open, io);
  registerAnalysis(program, open, io);
  registerMaintenance(program, open, io);
  registerBackup(program, open, io);
  registerEncrypt(program, io);
  registerExport(program, open, io);
  registerImport(program, open, io);
  registerImportHistory(program, open, io);
  registerDedupe(program, open, io);
  registerSettings(program, open, io);
  registerStatus(program, open, io);
  registerUsage(program, open, io);
  registerLookups(program, open, io);
  registerSuggestions(program, open, io);
  registerWeb(program, open, io);
  registerService(program, io);
  registerForget(program, open, io);
  registerBoundaries(program, open, io);
  oneLineUsageAfterErrors(program);
  return program;
}

/**
 * After a mistake (a typo, a missing argument) each command prints its own
 * usage line and where the help is, not the whole help: commander's
 * "Did you mean …?" stays the line that matters.
 */
function oneLineUsageAfterErrors(cmd: Command, parents: string[] = []): void {
  const path = [...parents, cmd.name()];
  cmd.showHelpAfterError(`usage: ${path.join(" ")} ${cmd.usage()}  (${path.join(" ")} --help for more)`);
  for (const sub of cmd.commands) oneLineUsageAfterErrors(sub, path);
}
