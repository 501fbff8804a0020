import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { CliIO } from "../context.ts";
import type { ConversionItem } from "../../core/internal.ts";

/**
 * `lilo encrypt [--apply]`: an install from before encryption (a plain
 * database, its backups, the vector snapshot, an earlier Lilo's analysis
 * files, which are moved into the database first) converted in place to
 * LILO_DATA_KEY. `lilo rekey --new-key-file FILE [--apply]`: the same files
 * moved from LILO_DATA_KEY to a new key. Both without opening Lilo, whose
 * start refuses a plain database once a key is set; both need the bot stopped.
 */
export function registerEncrypt(program: Command, io: CliIO): void {
  program
    .command("encrypt")
    .description("encrypt an unencrypted database, its backups and vector snapshot in place with LILO_DATA_KEY; --apply does it (stop the bot first)")
    .option("--apply", "convert the files (a dry run lists them)")
    .action(async (o: { apply?: boolean }) => {
      process.exitCode = await convert(io, { kind: "encrypt" }, o.apply === true);
    });
  program
    .command("rekey")
    .description("change the key of the database and its backups from LILO_DATA_KEY to the key in FILE; --apply does it (stop the bot first)")
    .requiredOption("--new-key-file <file>", "a file holding the new key (e.g. from `openssl rand -hex 32`)")
    .option("--apply", "convert the files (a dry run lists them)")
    .action(async (o: { apply?: boolean; newKeyFile: string }) => {
      let newKey: string;
      try {
        newKey = readFileSync(o.newKeyFile, "utf8");
      } catch (err) {
        io.err(`error: cannot read the new key from ${o.newKeyFile}: ${(err as Error).message}`);
        process.exitCode = 1;
        return;
      }
      process.exitCode = await convert(io, { kind: "rekey", newKey }, o.apply === true);
    });
}

async function convert(io: CliIO, what: { kind: "encrypt" } | { kind: "rekey"; newKey: string }, apply: boolean): Promise<number> {
  const [{ describeError, loadConfigFromEnv, systemClock }, { installDir, convertInstall }, { ADAPTER_SECTIONS }] = await Promise.all([
    import("../../core/index.ts"),
    import("../../core/internal.ts"),
    import("../../adapters/config.ts"),
  ]);
  try {
    const config = loadConfigFromEnv(process.env, ADAPTER_SECTIONS, installDir(import.meta.url));
    const plan = convertInstall(config, what, { apply, clock: systemClock, onPhase: (file, phase) => io.out(`${phase}: ${file}`) });
    report(io, plan, what.kind, apply);
    return 0;
  } catch (err) {
    io.err(`error: ${describeError(err)}`);
    return 1;
  }
}

function report(io: CliIO, plan: ConversionItem[], kind: "encrypt" | "rekey", apply: boolean): void {
  const todo = plan.filter((i) => i.action === "convert");
  if (plan.length === 0) io.out("no database found: nothing to convert");
  for (const i of plan) io.out(`${i.action === "done" ? "already done" : apply ? "converted" : "to convert"}: ${i.path}${i.plain ? " (unencrypted)" : ""}`);
  if (!apply) {
    if (todo.length) io.out(`dry run: nothing changed. Stop the bot, then run \`lilo ${kind}${kind === "rekey" ? " --new-key-file FILE" : ""} --apply\`.`);
    return;
  }
  if (kind === "rekey") io.out("Now put the new key into LILO_DATA_KEY (or its key file) before you start Lilo: the old key no longer opens these files.");
  else if (todo.length) io.out("Encrypted. Keep LILO_DATA_KEY safe and apart from the data: without it the memory cannot be read.");
}
