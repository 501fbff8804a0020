/**
 * The user's say over what Lilo remembers: receipts of what each answer's
 * sheet held (/why), verdicts on one item and the correction log that undoes
 * them, topics never to bring up, and forgetting everywhere. The yes/no
 * questions these ask are registered in ./questions.ts.
 */
import type { FeedbackDeps } from "../../conversation/correction/feedback.ts";
import { CorrectionLog } from "../../conversation/correction/correction-log.ts";
import { BoundariesStore } from "../../foundation/store/boundaries.ts";
import { ForgetRows } from "../../foundation/store/forget-rows.ts";
import { ReceiptsStore } from "../../foundation/store/receipts.ts";
import { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import { Forgetting } from "../../memory/forgetting/forget-everywhere.ts";
import { Receipts } from "../../memory/receipts/receipts.ts";
import type { Base } from "./foundation.ts";
import type { Remembering } from "./memory.ts";
import type { Stores } from "./stores.ts";

/** Receipts, verdicts, the correction log, boundaries and forgetting. */
export interface MemoryCare {
  correctionLog: CorrectionLog;
  /** What each answer's sheet held (/why). */
  receipts: Receipts;
  /** What a verdict on an item ("stimmt nicht", "veraltet") changes and logs. */
  feedback: FeedbackDeps;
  /** Topics the user asked Lilo never to bring up. */
  boundaries: BoundariesStore;
  /** The check every speaking job reads. */
  boundaryGuard: BoundaryGuard;
  forgetting: Forgetting;
}

/** Builds them on the memory and the stores. */
export function wireMemoryCare(base: Base, stores: Pick<Stores, "profile" | "rules">, remembering: Pick<Remembering, "memory" | "messageVectors">): MemoryCare {
  const { config, db, clock } = base;
  const { memory, messageVectors } = remembering;
  const correctionLog = new CorrectionLog(db, memory, clock);
  const forgetRows = new ForgetRows(db);
  const receiptsStore = new ReceiptsStore(db);
  const boundaries = new BoundariesStore(db);
  return {
    correctionLog,
    receipts: new Receipts({ store: receiptsStore, memory, rows: forgetRows, rules: stores.rules }),
    feedback: { memory, profile: stores.profile, rules: stores.rules, log: correctionLog, clock, timezone: config.timezone },
    boundaries,
    boundaryGuard: new BoundaryGuard(boundaries),
    forgetting: new Forgetting({ memory, rows: forgetRows, receipts: receiptsStore, messageVectors, clock, language: config.persona.language }),
  };
}
