import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";
import { EmbedderError, VectorIndexError, type Lilo } from "../../core/index.ts";
import { type VectorIndexState } from "../../core/internal.ts";

/** One line on the embedded index's derived copy. */
function indexLine(s: VectorIndexState): string {
  return (
    `index: ${s.entries} entries in ${s.partitions} partitions (${s.graphs} with a graph${s.graphsWaiting ? `, ${s.graphsWaiting} more saved, loaded just after a start` : ""}${s.residualBytes ? `, ${(s.residualBytes / 2 ** 20).toFixed(1)} MB of residuals for rescoring in RAM` : ""}), ` +
    `${s.vectorsInSqlite} vectors in SQLite; ` +
    `last change applied ${s.lastApplied} of ${s.lastInSqlite}` +
    (s.loadedFrom ? `; loaded from ${s.loadedFrom === "snapshot" ? "the snapshot" : "SQLite (rebuilt)"}` : "") +
    `; rebuild needed: ${s.rebuildNeeded ?? "no"}`
  );
}

/** `lilo doctor` and `lilo reindex`: consistency of rows and vectors. */
export function registerMaintenance(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("doctor")
    .description("find rows without vectors and vectors without rows; --apply repairs after a backup")
    .option("--apply", "repair what was found (a backup is made first)")
    .option("--json", "print the report as JSON")
    .action((o: { apply?: boolean; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        try {
          return await doctor(lilo, io, o);
        } catch (err) {
          // An index of another embedding model, or a model that cannot be loaded, is the doctor's finding, not a
          // reason to refuse: say it and what repairs it.
          if (!(err instanceof VectorIndexError) && !(err instanceof EmbedderError)) throw err;
          const part = err instanceof EmbedderError ? "embedder" : "index";
          if (o.json) io.out(JSON.stringify({ [part]: { problem: err.message } }));
          else io.out(`${part === "index" ? "vector index" : "embedding model"}: ${err.message}`);
          return 2;
        }
      }),
    );

  registerReindexCommand(program, open, io);
}

/** `lilo doctor`: the index and the rows checked; 0 consistent, 2 problems found (repaired with --apply). */
async function doctor(lilo: Lilo, io: CliIO, o: { apply?: boolean; json?: boolean }): Promise<number> {
  let index = await lilo.maintenance.indexState();
  // A copy that disagrees with SQLite is rebuilt first, so the row check below compares against the truth.
  const rebuilt = !!index?.rebuildNeeded && !!o.apply && (await lilo.maintenance.reloadIndex());
  if (rebuilt) {
    io.out(`rebuilt the index from the vectors in SQLite (${index!.rebuildNeeded})`);
    index = await lilo.maintenance.indexState();
  }
  const report = await lilo.maintenance.check();
  const problems = lilo.maintenance.modelProblems();
  if (o.json) io.out(JSON.stringify({ ...report, modelProblems: problems, ...(index ? { index } : {}) }));
  else {
    if (index) io.out(indexLine(index));
    io.out(`rows: ${report.rows}, vectors: ${report.vectors}`);
    io.out(`half-added (rows without vectors, will be embedded): ${report.rowsWithoutVector.length}`);
    for (const k of report.rowsWithoutVector.slice(0, 20)) io.out(`  ${k.store} #${k.rowId} (user ${k.userId})`);
    io.out(`half-deleted (interrupted forgets, will be finished): ${report.halfDeleted.length}`);
    for (const k of report.halfDeleted.slice(0, 20)) io.out(`  ${k.store} #${k.rowId} (user ${k.userId})`);
    io.out(`vectors without rows (will be removed): ${report.vectorsWithoutRow.length}`);
    for (const k of report.vectorsWithoutRow.slice(0, 20)) io.out(`  ${k.store} #${k.rowId} (user ${k.userId})`);
    const counted = Object.entries(problems);
    if (counted.length) io.out(`malformed model answers: ${counted.map(([k, n]) => `${k}=${n}`).join(", ")}`);
  }
  const broken = report.rowsWithoutVector.length + report.vectorsWithoutRow.length + report.halfDeleted.length;
  if (broken === 0 && !index?.rebuildNeeded) {
    if (!o.json) io.out("everything consistent");
    return 0;
  }
  if (!o.apply) {
    if (!o.json) io.out("dry run: nothing changed. Run `lilo doctor --apply` to repair.");
    return 2;
  }
  if (broken === 0) return 0;
  io.out(`backup: ${await lilo.backup.create()}`);
  await lilo.maintenance.repair(report);
  io.out(`repaired ${broken} entries`);
  return 0;
}

/** `lilo reindex [--apply]`. */
function registerReindexCommand(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("reindex")
    .description("rebuild the vector index from SQLite (after switching the embedding model); --apply to run")
    .option("--apply", "rebuild now (a backup is made first)")
    .action((o: { apply?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const total = lilo.memory.countLive();
        io.out(`${total} memories would be embedded with ${lilo.config.embedding.model} into ${lilo.config.vector.backend}`);
        const pending = lilo.maintenance.pendingReindex();
        if (pending) io.out(`an interrupted reindex (${pending.embedderId}) got to ${pending.done} memories: --apply (or the bot's next start) continues it`);
        if (!o.apply) {
          io.out("dry run: nothing changed. Run `lilo reindex --apply` to rebuild.");
          return 0;
        }
        io.out(`backup: ${await lilo.backup.create()}`);
        const { SingleBar, Presets } = await import("cli-progress");
        const bar = new SingleBar(
          { stream: io.progressStream, format: "reindex [{bar}] {value}/{total} ({percentage}%) eta {eta}s", noTTYOutput: true, notTTYSchedule: 2000 },
          Presets.shades_classic,
        );
        let started = false;
        const outcome = await lilo.maintenance.reindex((n, t) => {
          if (!started) {
            // Recorded as a job from here on: a kill leaves a reindex that the next run or the bot's start continues.
            io.out(`reindex started at ${n} of ${t} (resumable)`);
            bar.start(t, n);
            started = true;
          } else bar.update(n);
        });
        if (started) bar.stop();
        const done = outcome.done;
        io.out(`reindexed ${done} memories${outcome.resumed ? " (continued an interrupted reindex)" : ""}`);
        return 0;
      }),
    );
}
