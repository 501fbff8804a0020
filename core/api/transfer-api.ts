import type { DataKey } from "../foundation/store/data-key.ts";
import { ConfigError } from "../foundation/errors.ts";
import { isSealed, seal, unseal } from "../foundation/util/sealed.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Db } from "../foundation/store/db.ts";
import { exportStore, type ExportLine, type ExportStore } from "../foundation/store/export-lines.ts";
import { parseImportText, type ImportLine, type ImportStore, type RefusedLine } from "../memory/transfer/import-lines.ts";
import { applyImport, planCounts, planImport, type ImportDeps, type ImportPlan } from "../memory/transfer/import.ts";

/** `lilo export` and `lilo import`: JSON Lines out of the stores and back in, planned (dry run) and then applied all or nothing. */
export interface TransferApi {
  /** One store's rows as export lines, oldest first; one user's or (userId undefined) everyone's. Memory stores: live entries only. */
  export(store: ExportStore, userId: string | undefined): ExportLine[];
  /** Validates a whole file (value rules, limits of length, time and user id); writes nothing. Throws "invalid-input" for a default user id of no known shape. */
  parse(text: string, defaults: { store: ImportStore; userId: string }): { lines: ImportLine[]; refused: RefusedLine[] };
  plan(lines: ImportLine[], refused: RefusedLine[], opts: { allowDuplicates: boolean }): Promise<ImportPlan>;
  counts(plan: ImportPlan): Record<ImportStore, { add: number; skip: number; refuse: number }>;
  apply(plan: ImportPlan): Promise<number>;
  /** Whether exports are encrypted: a data key (LILO_DATA_KEY) is set. */
  readonly sealsExports: boolean;
  /** An export's text encrypted with the data key (sealed.ts); throws a ConfigError without a key. */
  sealExport(text: string): Buffer;
  /** The text of an export file, encrypted or plain; a ConfigError naming LILO_DATA_KEY when its key is missing or another. */
  readExport(bytes: Buffer, what: string): string;
}

/** Builds the export and import use cases; an import's texts are at most `maxTextChars` long, the chat's limit. */
export function transferApi(db: Db, importDeps: ImportDeps, clock: Clock, maxTextChars: number, key?: DataKey): TransferApi {
  return {
    sealsExports: key !== undefined,
    sealExport: (text) => {
      if (!key) throw new ConfigError("an encrypted export needs LILO_DATA_KEY");
      return seal(text, key.text);
    },
    readExport: (bytes, what) => (isSealed(bytes) ? unseal(bytes, key?.text, what) : bytes.toString("utf8")),
    export: (store, userId) => exportStore(db, store, userId),
    parse: (text, defaults) => parseImportText(text, { ...defaults, now: clock.now().toISOString(), maxTextChars }),
    plan: (lines, refused, opts) => planImport(importDeps, lines, refused, opts),
    counts: planCounts,
    apply: (plan) => applyImport(importDeps, plan),
  };
}
