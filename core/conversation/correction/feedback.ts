/**
 * The user's verdict on one memory from /why (issue 19): "stimmt nicht"
 * (wrong) and "veraltet" (outdated). "stimmt nicht" on a memory with a vector
 * first asks what is wrong (questions/wrong-question.ts); this applies the
 * plain verdict ("Löschen", "veraltet"). A memory with a vector is superseded,
 * never erased, and the correction log records it, so `lilo corrections
 * undo` brings it back; "veraltet" keeps the date it stopped being true. A
 * profile entry is removed, a rule switched off.
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { RulesStore } from "../../foundation/store/rules.ts";
import type { ReceiptStore } from "../../foundation/store/receipts.ts";
import type { Memory } from "../../memory/memory.ts";
import type { WhyItem } from "../../memory/receipts/receipts.ts";
import type { Question } from "../turn/types.ts";
import { VECTOR_STORES, type VectorStore } from "../../foundation/ports/vector-index.ts";
import type { CorrectionLog } from "./correction-log.ts";
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
  if ((VECTOR_STORES as readonly string[]).includes(item.store)) {
    const store = item.store as VectorStore;
    await d.memory.supersede(store, item.id);
    const reason = verdict === "wrong" ? REASONS.wrong() : REASONS.outdated(localDay(now, d.timezone));
    const entry = d.log.record({
      userId,
      store,
      rowId: item.id,
      action: "delete",
      oldText: item.text,
      newText: null,
      newRowId: null,
      triggerMessageId: null,
      triggerText: verdict === "wrong" ? "stimmt nicht" : "veraltet",
      reason,
    });
    return { ...base, correctionId: entry.id };
  }
  if (item.store === "profile") return d.profile.delete(userId, item.id) ? base : undefined;
  if (item.store === "rules") return d.rules.setEnabled(item.id, false, now.toISOString()) ? base : undefined;
  return undefined;
}
