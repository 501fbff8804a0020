import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { backupDatabase } from "../context.ts";
import type { DbSummary } from "../db-file.ts";
import { withLilo } from "./shared.ts";
import { WriterLock } from "../../core/store/writer-lock.ts";

/** `lilo backup` and `lilo restore FILE [--apply]`: a consistent copy of the whole database, and back. */
export function registerBackup(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("backup")
    .description("write a consistent copy of the database into data/backups/ now (safe while the bot runs)")
    .action(() =>
      withLilo(open, io, async (lilo) => {
        io.out(`backup: ${await backupDatabase(lilo)}`);
        return 0;
      }),
    );

  program
    .command("restore <file>")
    .description("show what a backup holds and what it would replace; --apply restores it (stop the bot first)")
    .option("--apply", "replace the database with the file (the current one is backed up first)")
    .action((file: string, o: { apply?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const { assertNoWriter, inspectBackup, restoreInto, summarize } = await import("../db-file.ts");
        const incoming = inspectBackup(file, lilo.config.dbPath);
        const current = summarize(lilo.db);
        printComparison(io, file, incoming, current);
        if (!o.apply) {
          io.out("dry run: nothing changed. Stop the bot, then run `lilo restore FILE --apply`.");
          return 0;
        }
        if (lilo.config.dbPath === ":memory:") {
          io.err("error: an in-memory database cannot be restored");
          return 1;
        }
        // The bot must not run while pages are replaced, busy or idle: refuse rather than wait.
        // The lock also keeps a bot from starting until the restore is done.
        const lock = WriterLock.acquire(lilo.config.dataDir, "restore", lilo.clock.now());
        try {
          assertNoWriter(lilo.db);
          io.out(`backup of the current database: ${await backupDatabase(lilo)}`);
          await restoreInto(file, lilo.config.dbPath);
        } finally {
          lock.release();
        }
        io.out(`restored ${file} into ${lilo.config.dbPath}`);
        io.out("Next: run `lilo doctor` to check the vector index against the restored rows.");
        if (lilo.config.vector.backend === "qdrant") {
          io.out("Qdrant is not part of the backup: its vectors still match the old database; run `lilo doctor --apply` or `lilo reindex --apply`.");
        } else io.out(`The ${lilo.config.vector.backend} index keeps its vectors in the same file; they were restored with it.`);
        return 0;
      }),
    );
}

function printComparison(io: CliIO, file: string, incoming: DbSummary, current: DbSummary): void {
  io.out(`${file}: Lilo database, schema version ${incoming.schemaVersion} (this Lilo: ${current.schemaVersion})`);
  io.out(`${"store".padEnd(14)} ${"in file".padStart(8)} ${"now".padStart(8)}`);
  for (const store of Object.keys(incoming.counts)) {
    io.out(`${store.padEnd(14)} ${String(incoming.counts[store]).padStart(8)} ${String(current.counts[store] ?? 0).padStart(8)}`);
  }
  io.out("restoring replaces the whole current database (every store, settings, logs) with the file's content");
}
