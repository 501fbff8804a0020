import type { Clock } from "../foundation/ports/clock.ts";
import { ConfigError } from "../foundation/errors.ts";
import { configuredDataKey, dataKeyOf, type DataKey, type DataKeySettings } from "../foundation/store/data-key.ts";
import { WriterLock } from "../foundation/store/writer-lock.ts";
import { openDatabase } from "../foundation/store/db.ts";
import { AnalysesStore } from "../foundation/store/analyses.ts";
import { hasAnalysisFiles, moveAnalysisFiles } from "../background/analysis/analysis-files.ts";
import {
  convertFile,
  databaseFiles,
  planConversion,
  removeSnapshot,
  removeUnfinished,
  type ConversionItem,
  type ConversionPhase,
} from "../foundation/store/convert-files.ts";

export type { ConversionItem, ConversionPhase } from "../foundation/store/convert-files.ts";
export { CONVERSION_PHASES } from "../foundation/store/convert-files.ts";

/** The paths and key settings a conversion reads from the configuration. */
export type ConversionConfig = DataKeySettings & { dbPath: string; dataDir: string; analysis: { dir: string } };

/** `lilo encrypt` (plain → LILO_DATA_KEY) or `lilo rekey` (LILO_DATA_KEY → the new key's text). */
export type ConversionKind = { kind: "encrypt" } | { kind: "rekey"; newKey: string };

/** How a conversion runs: a dry run plans only; `onPhase` hears each step of each file. */
export interface ConversionRun {
  apply: boolean;
  clock: Clock;
  onPhase?: (file: string, phase: ConversionPhase) => void;
}

/**
 * Converts the database and every backup of an install to a new key
 * (convert-files.ts), with the bot stopped (the writer lock), after moving an
 * earlier Lilo's plain analysis files into the database. Returns the plan:
 * each file, converted or already done. Runs again safely after a crash.
 */
export function convertInstall(config: ConversionConfig, what: ConversionKind, run: ConversionRun): ConversionItem[] {
  const current = configuredDataKey(config);
  let from: DataKey | undefined;
  let to: DataKey;
  if (what.kind === "encrypt") {
    if (!current) throw new ConfigError("lilo encrypt needs the key to encrypt with: set LILO_DATA_KEY (or LILO_DATA_KEY_FILE); `lilo setup` makes one");
    to = current;
  } else {
    if (!current) throw new ConfigError("lilo rekey needs the current key in LILO_DATA_KEY (or LILO_DATA_KEY_FILE)");
    from = current;
    to = dataKeyOf(what.newKey, "the new key");
  }
  const files = databaseFiles(config.dbPath, config.dataDir);
  const plan = planConversion(files, from, to);
  if (!run.apply) return plan;
  const lock = WriterLock.acquire(config.dbPath, what.kind, run.clock.now());
  try {
    removeUnfinished(files);
    moveAnalysesIn(config, plan, from, to, run);
    for (const item of plan.filter((i) => i.action === "convert")) {
      convertFile(item.path, item.plain ? undefined : from, to, (phase) => run.onPhase?.(item.path, phase));
    }
    // Last, and again on a run after a crash: the vector snapshot goes rather than being converted (it is derived data;
    // the next start builds it from the database and writes it sealed with the new key), so no plain copy stays behind.
    run.onPhase?.(config.dbPath, "snapshot");
    removeSnapshot(config.dbPath);
  } finally {
    lock.release();
  }
  return plan;
}

/**
 * Moves the saved analyses an earlier Lilo kept as plain files into the live
 * database (analysis-files.ts), opened with the key it has now, before it is
 * converted: so they are converted with it, and no plain copy stays behind.
 * A crash after the move leaves them in the database, which the next run
 * converts; a crash during it leaves the files, which the next run moves.
 */
function moveAnalysesIn(config: ConversionConfig, plan: readonly ConversionItem[], from: DataKey | undefined, to: DataKey, run: ConversionRun): void {
  const dir = config.analysis.dir;
  if (!hasAnalysisFiles(dir)) return;
  const live = plan.find((i) => i.path === config.dbPath);
  // Without a database yet, the one made now has the new key already: nothing to convert.
  const key = !live ? to : live.plain ? undefined : live.action === "done" ? to : from;
  const db = openDatabase(config.dbPath, key);
  try {
    moveAnalysisFiles(dir, new AnalysesStore(db), run.clock.now().toISOString(), () => run.onPhase?.(dir, "analyses"));
  } finally {
    db.close();
  }
}
