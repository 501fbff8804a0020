import type { Memory } from "../../memory/memory.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { Extraction } from "./extract.ts";
import { provenanceColumns } from "../../foundation/store/provenance.ts";

/** What one extraction changed, for logs and tests. */
interface RememberReport {
  notesAdded: number[];
  notesSkipped: { text: string; reason: string; duplicateOf: number }[];
  profileAdded: number[];
  importantAdded: number[];
}

/**
 * Saves an extraction: facts and content as notes (deduplicated exactly and
 * by meaning), profile facts into the profile, important items as important
 * memories.
 */
export async function rememberExtraction(
  deps: { memory: Memory; profile: ProfileStore },
  ex: Extraction,
  ctx: { userId: string; sourceMessageId: number; userMessageId?: number; now: string },
): Promise<RememberReport> {
  const report: RememberReport = { notesAdded: [], notesSkipped: [], profileAdded: [], importantAdded: [] };
  // Facts come from the user's own words (the guard in extract.ts); what was said is of the exchange, Lilo's summary of it.
  // Either way the source is the person's message: Lilo's answer is what she said, not where she learnt it.
  const personsMessage = String(ctx.userMessageId ?? ctx.sourceMessageId);
  const said = provenanceColumns({ kind: "user", ref: personsMessage });
  const inferred = provenanceColumns({ kind: "inference", ref: personsMessage });
  const notes = [
    ...ex.facts.map((f) => ({ text: f.text, kind: "fact", subject: f.about, origin: said })),
    ...ex.content.map((text) => ({ text, kind: "content", subject: undefined, origin: inferred })),
  ];
  for (const n of notes) {
    const r = await deps.memory.add({
      text: n.text,
      userId: ctx.userId,
      store: "notes",
      extra: { kind: n.kind, source_message_id: ctx.sourceMessageId, ...(n.subject ? { subject: n.subject } : {}), ...n.origin },
    });
    if (r.added) report.notesAdded.push(r.id);
    else report.notesSkipped.push({ text: n.text, reason: r.reason, duplicateOf: r.duplicateOf });
  }
  for (const p of ex.profile) {
    const r = deps.profile.add(ctx.userId, p.category, p.text, ctx.now, { kind: "user", ref: String(ctx.userMessageId ?? ctx.sourceMessageId) });
    if (r.added) report.profileAdded.push(r.id);
  }
  for (const i of ex.important) {
    const r = await deps.memory.add({
      text: i.text,
      userId: ctx.userId,
      store: "important",
      extra: { weight: i.weight, source_message_id: ctx.sourceMessageId, subject: i.about, ...inferred },
    });
    if (r.added) report.importantAdded.push(r.id);
  }
  return report;
}
