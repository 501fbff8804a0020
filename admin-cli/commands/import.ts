import { InvalidArgumentError, type Command } from "commander";
import { readFileSync } from "node:fs";
import { IMPORT_STORES, type ImportStore } from "../../core/internal.ts";
import { type Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, userOption } from "./shared.ts";

function parseImportStore(value: string): ImportStore {
  if ((IMPORT_STORES as readonly string[]).includes(value)) return value as ImportStore;
  throw new InvalidArgumentError(`unknown store "${value}" (use ${IMPORT_STORES.join(", ")})`);
}

interface ImportOptions {
  store: ImportStore;
  user?: string;
  allowDuplicates?: boolean;
  apply?: boolean;
}

/**
 * `lilo import FILE` (also `lilo memory import FILE`): JSON Lines as `lilo
 * export` writes them. A dry run by default: what would be added, skipped
 * and refused, per store. `--apply` makes a backup and then imports all or
 * nothing; a file with one invalid line imports nothing.
 */
export function registerImport(parent: Command, open: LiloOpener, io: CliIO, name = "import"): void {
  parent
    .command(`${name} <file>`)
    .description("import JSON Lines (the format of lilo export: notes, important, thoughts, diary, profile, rules, topics, reminders); dry run unless --apply")
    .option("--store <store>", `store of lines without one (${IMPORT_STORES.join(", ")})`, parseImportStore, "notes")
    .option(...userOption)
    .option("--allow-duplicates", "skip the duplicate checks")
    .option("--apply", "import now, all or nothing (a backup is made first)")
    .action((file: string, o: ImportOptions) => withLilo(open, io, (lilo) => runImport(lilo, io, file, o), { create: true }));
}

async function runImport(lilo: Lilo, io: CliIO, file: string, o: ImportOptions): Promise<number> {
  const { lines, refused } = lilo.transfer.parse(lilo.transfer.readExport(readFileSync(file), file), {
    store: o.store,
    userId: o.user ?? lilo.config.terminal.userId,
  });
  const plan = await lilo.transfer.plan(lines, refused, { allowDuplicates: !!o.allowDuplicates });
  io.out(`${"store".padEnd(10)} ${"add".padStart(7)} ${"skip".padStart(7)} ${"refuse".padStart(7)}`);
  for (const [store, c] of Object.entries(lilo.transfer.counts(plan))) {
    if (c.add + c.skip + c.refuse) io.out(`${store.padEnd(10)} ${String(c.add).padStart(7)} ${String(c.skip).padStart(7)} ${String(c.refuse).padStart(7)}`);
  }
  const unknown = refused.filter((r) => !(IMPORT_STORES as readonly string[]).includes(r.store)).length;
  if (unknown) io.out(`${"(no store)".padEnd(10)} ${"".padStart(7)} ${"".padStart(7)} ${String(unknown).padStart(7)}`);
  for (const r of refused) io.err(`line ${r.line}: ${r.reason}`);
  for (const s of plan.skip.slice(0, 20)) io.out(`skip line ${s.line.line} (${s.line.store}): ${s.reason}`);
  if (refused.length) {
    io.out(`${refused.length} invalid lines: nothing ${o.apply ? "was" : "would be"} imported. Fix the file and run again.`);
    return 1;
  }
  if (!o.apply) {
    io.out(`dry run: nothing changed. Run \`lilo import ${file} --apply\` to add ${plan.add.length} entries.`);
    return 0;
  }
  io.out(`backup: ${await lilo.backup.create()}`);
  const added = await lilo.transfer.apply(plan);
  io.out(`imported ${added}, skipped ${plan.skip.length} duplicates`);
  return 0;
}
