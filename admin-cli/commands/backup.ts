import type { Command } from "commander";
import type { Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";
import { matrixDevicesOf, matrixKeyDevices, restoreLegacyMatrixKeys } from "../../adapters/matrix/crypto/key-backup.ts";

/** `lilo backup` and `lilo restore FILE [--apply]`: a consistent copy of the whole database, and back. */
export function registerBackup(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("backup")
    .description("write a consistent copy of the database into data/backups/ now (safe while the bot runs)")
    .action(() =>
      withLilo(open, io, async (lilo) => {
        const file = await lilo.backup.create();
        io.out(`backup: ${file}`);
        const devices = matrixKeyDevices(lilo.deviceKeys);
        if (devices.length) io.out(`Matrix encryption keys (device ${devices.join(", ")}) are inside the backup`);
        return 0;
      }),
    );

  program
    .command("restore <file>")
    .description("show what a backup holds and what it would replace; --apply restores it (stop the bot first)")
    .option("--apply", "replace the database with the file (the current one is backed up first)")
    .action((file: string, o: { apply?: boolean }) =>
      withLilo(
        open,
        io,
        async (lilo) => {
          printComparison(io, file, lilo.backup.compare(file));
          if (!o.apply) {
            io.out("dry run: nothing changed. Stop the bot, then run `lilo restore FILE --apply`.");
            return 0;
          }
          const outcome = await lilo.backup.restore(file, (backup) => io.out(`backup of the current database: ${backup}`));
          io.out(`restored ${file} into ${lilo.config.dbPath}`);
          const kept = matrixDevicesOf(outcome.keyStoresKept);
          if (kept.length) io.out(`Matrix encryption keys kept as they were (newer than the backup's): ${kept.join(", ")}`);
          const back = [...matrixDevicesOf(outcome.keyStoresRestored), ...(await restoreLegacyMatrixKeys(lilo.deviceKeys, file))];
          if (back.length) io.out(`Matrix encryption keys put back (they were missing): ${back.join(", ")}`);
          io.out("Next: run `lilo doctor` to check the vector index against the restored database.");
          if (lilo.config.vector.backend === "qdrant") {
            io.out("Qdrant is not part of the backup: its vectors still match the old database; run `lilo doctor --apply` or `lilo reindex --apply`.");
          } else io.out(`The ${lilo.config.vector.backend} index keeps its vectors in the same file; they were restored with it.`);
          return 0;
        },
        { create: o.apply === true },
      ),
    );
}

function printComparison(io: CliIO, file: string, { incoming, current }: ReturnType<Lilo["backup"]["compare"]>): void {
  io.out(`${file}: Lilo database, schema version ${incoming.schemaVersion} (this Lilo: ${current.schemaVersion})`);
  io.out(`${"store".padEnd(14)} ${"in file".padStart(8)} ${"now".padStart(8)}`);
  for (const store of Object.keys(incoming.counts)) {
    io.out(`${store.padEnd(14)} ${String(incoming.counts[store]).padStart(8)} ${String(current.counts[store] ?? 0).padStart(8)}`);
  }
  io.out("restoring replaces the whole current database (every store, settings, logs) with the file's content");
}
