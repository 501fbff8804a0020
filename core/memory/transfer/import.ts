import type { Db } from "../../foundation/store/db.ts";
import type { Embedder } from "../../foundation/ports/embedder.ts";
import type { VectorIndex, VectorRecord, VectorStore } from "../../foundation/ports/vector-index.ts";
import { VECTOR_STORES } from "../../foundation/ports/vector-index.ts";
import type { Memory } from "../memory.ts";
import { asyncWriteTransaction } from "../../foundation/store/tx.ts";
import {
  hasImportedReminder,
  hasImportedText,
  insertImportedProfile,
  insertImportedReminder,
  insertImportedRule,
  insertImportedTopic,
} from "../../foundation/store/import-rows.ts";
import { LiloError, describeError } from "../../foundation/errors.ts";
import { IMPORT_STORES, type ImportLine, type ImportStore, type RefusedLine } from "./import-lines.ts";

/** What an import would do (dry run) or did, per store. */
export interface ImportPlan {
  add: ImportLine[];
  /** Already there (same text; for notes, important and thoughts also the same meaning), or twice in the file. */
  skip: { line: ImportLine; reason: string }[];
  refused: RefusedLine[];
  /** Vectors of the lines to add to a vector store, by line number. */
  vectors: Map<number, Float32Array>;
}

/** Counts per store, for the dry-run table. */
export function planCounts(plan: ImportPlan): Record<ImportStore, { add: number; skip: number; refuse: number }> {
  const out = Object.fromEntries(IMPORT_STORES.map((s) => [s, { add: 0, skip: 0, refuse: 0 }])) as Record<
    ImportStore,
    { add: number; skip: number; refuse: number }
  >;
  for (const l of plan.add) out[l.store].add++;
  for (const s of plan.skip) out[s.line.store].skip++;
  for (const r of plan.refused) if (r.store in out) out[r.store as ImportStore].refuse++;
  return out;
}

/** What planning and applying an import need (wired in createLilo). */
export interface ImportDeps {
  db: Db;
  memory: Memory;
  embedder: Embedder;
  index: VectorIndex;
}

const isVectorStore = (s: ImportStore): s is VectorStore => (VECTOR_STORES as readonly string[]).includes(s);
const EMBED_BATCH = 64;
const UPSERT_BATCH = 500;

/**
 * Decides line by line what an import would add or skip; writes nothing.
 * Duplicates: the same text of the same user in the store (or earlier in the
 * file); for notes, important and thoughts also the same meaning (docs/spec.md §4.1),
 * unless `allowDuplicates`. The diary is never deduplicated (docs/spec.md §11).
 */
export async function planImport(deps: ImportDeps, lines: ImportLine[], refused: RefusedLine[], opts: { allowDuplicates: boolean }): Promise<ImportPlan> {
  const plan: ImportPlan = { add: [], skip: [], refused, vectors: new Map() };
  const seen = new Set<string>();
  const candidates: ImportLine[] = [];
  for (const l of lines) {
    const key = `${l.store}\u0000${l.userId}\u0000${l.store === "profile" ? l.category : l.store === "reminders" ? `${l.dueAt}\u0000${l.recurrence}` : ""}\u0000${l.text}`;
    const dedup = l.store !== "diary" && !opts.allowDuplicates;
    if (dedup && (seen.has(key) || exists(deps, l))) plan.skip.push({ line: l, reason: "same text" });
    else candidates.push(l);
    seen.add(key);
  }
  await deps.memory.init();
  const toEmbed = candidates.filter((l) => isVectorStore(l.store));
  for (let i = 0; i < toEmbed.length; i += EMBED_BATCH) {
    const batch = toEmbed.slice(i, i + EMBED_BATCH);
    const vectors = await deps.embedder.embed(batch.map((l) => l.text));
    batch.forEach((l, j) => plan.vectors.set(l.line, vectors[j]!));
  }
  // The embedder in use decides what "the same meaning" is; an unknown one dedups exact text only (thresholds.ts).
  const dedupMinScore = deps.memory.thresholds.dedupMinScore;
  for (const l of candidates) {
    const vector = plan.vectors.get(l.line);
    if (vector && l.store !== "diary" && !opts.allowDuplicates && dedupMinScore !== undefined) {
      const [near] = await deps.index.search({ vector, store: l.store as VectorStore, userId: l.userId, k: 1, minScore: dedupMinScore });
      if (near) {
        plan.skip.push({ line: l, reason: `same meaning as ${l.store} #${near.rowId} (${near.score.toFixed(2)})` });
        plan.vectors.delete(l.line);
        continue;
      }
    }
    plan.add.push(l);
  }
  return plan;
}

/** Is this line's text already stored for its user (live rows; profile per category)? */
function exists(deps: ImportDeps, l: ImportLine): boolean {
  if (isVectorStore(l.store)) return deps.memory.rows[l.store].findExact(l.userId, l.text) !== undefined;
  if (l.store === "reminders") return hasImportedReminder(deps.db, { ...l, dueAt: new Date(l.dueAt).toISOString(), recurrence: l.recurrence ?? null });
  return hasImportedText(deps.db, l.store, l.userId, l.text, l.store === "profile" ? l.category : undefined);
}

/**
 * Writes a plan all or nothing: every row, and with the embedded index every vector
 * (same file), in one IMMEDIATE transaction. With an external index the
 * vectors written before a failure are deleted again. A plan with refused
 * lines is not applied at all.
 */
export async function applyImport(deps: ImportDeps, plan: ImportPlan): Promise<number> {
  if (plan.refused.length) throw new LiloError("import", `${plan.refused.length} lines are invalid; nothing was imported`);
  const records: VectorRecord[] = [];
  try {
    await asyncWriteTransaction(deps.db, async () => {
      for (const l of plan.add) {
        const id = insertRow(deps, l);
        const vector = plan.vectors.get(l.line);
        if (vector && isVectorStore(l.store)) records.push({ store: l.store, rowId: id, userId: l.userId, vector });
      }
      for (let i = 0; i < records.length; i += UPSERT_BATCH) await deps.index.upsert(records.slice(i, i + UPSERT_BATCH));
    });
  } catch (err) {
    await deps.index.delete(records).catch((cleanup: unknown) => {
      // Left-over vectors without rows are what `lilo doctor --apply` removes.
      throw new LiloError("import", `Import failed (${describeError(err)}) and its vectors could not be removed; run lilo doctor --apply`, { cause: cleanup });
    });
    throw new LiloError("import", `Import failed; nothing was imported: ${describeError(err)}`, { cause: err });
  }
  return plan.add.length;
}

/** Where an imported memory came from: what the line says (a round trip keeps it), else the import. */
function origin(l: ImportLine): Record<string, string> {
  const p = l.provenance
    ? { provenance: l.provenance, ...(l.provenanceRef !== undefined ? { provenance_ref: l.provenanceRef } : {}) }
    : { provenance: "import" };
  return l.about ? { ...p, subject: l.about } : p;
}

function insertRow(deps: ImportDeps, l: ImportLine): number {
  const at = l.createdAt;
  const IMPORTED = origin(l);
  switch (l.store) {
    case "notes":
      return deps.memory.rows.notes.insert(l.userId, l.text, at, { kind: l.kind, ...IMPORTED });
    case "important":
      return deps.memory.rows.important.insert(l.userId, l.text, at, { weight: l.weight, ...IMPORTED });
    case "thoughts":
      return deps.memory.rows.thoughts.insert(l.userId, l.text, at, { origin: l.origin, questions: l.questions, ...IMPORTED });
    case "diary":
      return deps.memory.rows.diary.insert(l.userId, l.text, at, { day: l.day, ...IMPORTED });
    case "profile":
      return insertImportedProfile(deps.db, {
        userId: l.userId,
        category: l.category,
        text: l.text,
        at,
        provenance: l.provenance ?? "import",
        provenanceRef: l.provenanceRef ?? null,
      });
    case "rules":
      return insertImportedRule(deps.db, { userId: l.userId, text: l.text, enabled: l.enabled !== false, at });
    case "topics":
      return insertImportedTopic(deps.db, {
        userId: l.userId,
        text: l.text,
        kind: l.kind ?? "followup",
        status: l.status ?? "open",
        dueAt: l.dueAt ? new Date(l.dueAt).toISOString() : at,
        doneAt: l.doneAt ? new Date(l.doneAt).toISOString() : null,
        at,
      });
    case "reminders":
      return insertImportedReminder(deps.db, {
        userId: l.userId,
        text: l.text,
        timeZone: l.timeZone,
        recurrence: l.recurrence ?? null,
        dueAt: new Date(l.dueAt).toISOString(),
        state: l.state ?? "pending",
        transport: l.transport,
        chatId: l.chatId,
        source: l.source ?? "import",
        deliveredCount: l.deliveredCount ?? 0,
        lastDueAt: l.lastDueAt ? new Date(l.lastDueAt).toISOString() : null,
        at,
      });
  }
}
