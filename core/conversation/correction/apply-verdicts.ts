import type { Memory } from "../../memory/memory.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { AppliedChange, ProfileOffer } from "../prompts/correction.ts";
import type { CorrectionLog } from "./correction-log.ts";
import type { Candidate } from "./candidates.ts";
import type { Verdict } from "./judge.ts";
import { LiloError, describeError } from "../../foundation/errors.ts";

/** The turn a correction belongs to. */
export interface ApplyContext {
  userId: string;
  triggerMessageId: number;
  triggerText: string;
  /** The CLI command that removes a profile entry, for the offer. */
  profileDeleteCommand(id: number): string;
}

/** What was changed (for the hint and the log) and which profile entries are offered for removal. */
export interface ApplyResult {
  changes: AppliedChange[];
  logIds: number[];
  offers: ProfileOffer[];
}

/**
 * Carries out the judge's verdicts. Notes (and, from /why's "stimmt nicht",
 * any memory with a vector: `Candidate.store`) are superseded, never erased: a
 * delete hides the note, a rewrite hides it and adds the new text as a new
 * note; both go to the correction log so `undo` can take them back. Profile
 * entries are never changed here (docs/spec.md §6.5): a verdict against one becomes
 * an offer the user can act on by hand.
 */
export async function applyVerdicts(
  deps: { memory: Memory; log: CorrectionLog; logger: Logger },
  candidates: Candidate[],
  verdicts: Verdict[],
  ctx: ApplyContext,
): Promise<ApplyResult> {
  const byKey = new Map(candidates.map((c) => [c.key, c]));
  const out: ApplyResult = { changes: [], logIds: [], offers: [] };
  for (const v of verdicts) {
    const c = byKey.get(v.id);
    if (!c || v.action === "keep") continue;
    if (v.action === "rewrite" && v.text?.trim() === c.text.trim()) continue;
    if (c.source === "profile") {
      out.offers.push({ id: c.id, category: c.category ?? "", text: c.text, command: ctx.profileDeleteCommand(c.id) });
      continue;
    }
    try {
      const id = v.action === "delete" ? await deleteNote(deps, c, v, ctx) : await rewriteNote(deps, c, v, ctx);
      out.logIds.push(id);
      out.changes.push({ action: v.action, oldText: c.text, newText: v.text });
    } catch (err) {
      // One failed change must not stop the others or the turn; the note stays as it was.
      deps.logger.warn("correction not applied", { userId: ctx.userId, note: c.id, action: v.action, error: describeError(err) });
    }
  }
  return out;
}

async function deleteNote(deps: { memory: Memory; log: CorrectionLog }, c: Candidate, v: Verdict, ctx: ApplyContext): Promise<number> {
  const store = c.store ?? "notes";
  const old = await deps.memory.supersede(store, c.id);
  return deps.log.record({
    userId: ctx.userId,
    store,
    rowId: c.id,
    action: "delete",
    oldText: old.text,
    newText: null,
    newRowId: null,
    triggerMessageId: ctx.triggerMessageId,
    triggerText: ctx.triggerText,
    reason: v.reason || null,
  }).id;
}

/** The new note is added first: if that fails, nothing has changed yet. */
async function rewriteNote(deps: { memory: Memory; log: CorrectionLog }, c: Candidate, v: Verdict, ctx: ApplyContext): Promise<number> {
  const store = c.store ?? "notes";
  const oldRow = deps.memory.rows[store].get(c.id);
  const added = await deps.memory.add({
    text: v.text!,
    userId: ctx.userId,
    store,
    allowDuplicate: true,
    // The rewrite comes from the user's correction, about whom the old memory was (and of its kind).
    extra: {
      ...(store === "notes" ? {} : oldRow?.extra),
      ...(store === "notes" ? { kind: oldRow?.extra.kind ?? "fact" } : {}),
      source_message_id: ctx.triggerMessageId,
      provenance: "user",
      provenance_ref: String(ctx.triggerMessageId),
      ...(typeof oldRow?.extra.subject === "string" ? { subject: oldRow.extra.subject } : {}),
    },
  });
  if (!added.added) throw new LiloError("internal", "the rewritten note was not added");
  let old;
  try {
    old = await deps.memory.supersede(store, c.id);
  } catch (err) {
    await deps.memory.forget(store, added.id);
    throw err;
  }
  return deps.log.record({
    userId: ctx.userId,
    store,
    rowId: c.id,
    action: "rewrite",
    oldText: old.text,
    newText: v.text!,
    newRowId: added.id,
    triggerMessageId: ctx.triggerMessageId,
    triggerText: ctx.triggerText,
    reason: v.reason || null,
  }).id;
}
