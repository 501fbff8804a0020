/**
 * The user's verdict on one memory from /why: "stimmt nicht"
 * (wrong) and "veraltet" (outdated). "stimmt nicht" on a memory with a vector
 * first asks what is wrong (questions/wrong-question.ts); this applies the
 * plain verdict ("Löschen", "veraltet"). A memory with a vector is superseded,
 * never erased, and the correction log records it, so `lilo corrections
 * undo` brings it back; "veraltet" keeps the date it stopped being true. A
 * profile entry has no superseded state (the sheet shows every row): it is
 * logged with its category and origin, then removed, and undo puts it back.
 * A rule is switched off (switching it on again undoes that).
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { RulesStore } from "../../foundation/store/rules.ts";
import type { ReceiptStore } from "../../foundation/store/receipts.ts";
import type { Memory } from "../../memory/memory.ts";
import type { WhyItem } from "../../memory/receipts/receipts.ts";
import type { Question } from "../turn/types.ts";
import { VECTOR_STORES, type VectorStore } from "../../foundation/ports/vector-index.ts";
import type { CorrectionLog, NewCorrection } from "./correction-log.ts";
import { localDay } from "../../foundation/util/time.ts";

/** The two verdicts. */
export type Verdict = "wrong" | "outdated";

/**
 * What a verdict did; `correctionId` is the log entry to undo it by. A
 * "wrong" memory is not changed yet: `question` asks what is wrong about it,
 * and the reply goes to the judge (marked-wrong-step.ts).
 */
export interface VerdictOutcome {
  store: ReceiptStore;
  id: number;
  text: string;
  verdict: Verdict;
  correctionId?: number;
  question?: Question;
}

/** What applying a verdict needs. */
export interface FeedbackDeps {
  memory: Memory;
  profile: ProfileStore;
  rules: RulesStore;
  log: CorrectionLog;
  clock: Clock;
  timezone: string;
}

const REASONS = {
  wrong: () => "the user marked it wrong (/why: stimmt nicht)",
  outdated: (day: string) => `the user marked it outdated on ${day} (/why: veraltet)`,
} as const;

/** Applies a verdict to an item the user owns (the caller resolved it from their receipt). */
export async function applyVerdict(
  d: FeedbackDeps,
  userId: string,
  item: Pick<WhyItem, "store" | "id" | "text">,
  verdict: Verdict,
): Promise<VerdictOutcome | undefined> {
  const now = d.clock.now();
  const base = { store: item.store, id: item.id, text: item.text, verdict };
  const logged = (entry: Pick<NewCorrection, "store" | "oldText" | "oldCategory" | "oldProvenance">) =>
    d.log.record({
      userId,
      rowId: item.id,
      action: "delete",
      newText: null,
      newRowId: null,
      triggerMessageId: null,
      triggerText: verdict === "wrong" ? "stimmt nicht" : "veraltet",
      reason: verdict === "wrong" ? REASONS.wrong() : REASONS.outdated(localDay(now, d.timezone)),
      ...entry,
    }).id;
  if ((VECTOR_STORES as readonly string[]).includes(item.store)) {
    const store = item.store as VectorStore;
    await d.memory.supersede(store, item.id);
    return { ...base, correctionId: logged({ store, oldText: item.text }) };
  }
  if (item.store === "profile") {
    // Logged first, with what undo needs to put it back; nothing is awaited in between, so no other write comes between.
    const row = d.profile.get(userId, item.id);
    if (!row) return undefined;
    const correctionId = logged({ store: "profile", oldText: row.text, oldCategory: row.category, oldProvenance: row.provenance ?? null });
    d.profile.delete(userId, item.id);
    return { ...base, correctionId };
  }
  if (item.store === "rules") return d.rules.setEnabled(item.id, false, now.toISOString()) ? base : undefined;
  return undefined;
}
