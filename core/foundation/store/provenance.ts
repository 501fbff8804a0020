/**
 * Where a memory came from: the user's own words (a message id),
 * Lilo's inference (the message it was written in), a lookup (a URL or
 * feed), an import, or the operator. Kept in two columns of every memory
 * store (`provenance`, `provenance_ref`); rows older than the columns have none.
 */
export const PROVENANCE_KINDS = ["user", "inference", "lookup", "import", "operator"] as const;

/** One of the five origins. */
type ProvenanceKind = (typeof PROVENANCE_KINDS)[number];

/** A memory's origin: its kind and, where there is one, the message id or URL. */
export interface Provenance {
  kind: ProvenanceKind;
  ref?: string | undefined;
}

/** The two column values of a provenance, for a store's `extra` fields. */
export function provenanceColumns(p: Provenance | undefined): { provenance?: string; provenance_ref?: string } {
  if (!p) return {};
  return { provenance: p.kind, ...(p.ref !== undefined ? { provenance_ref: p.ref } : {}) };
}

/** The provenance stored in a row's columns, if any. */
export function readProvenance(row: { provenance?: unknown; provenance_ref?: unknown }): Provenance | undefined {
  const kind = row.provenance;
  if (typeof kind !== "string" || !(PROVENANCE_KINDS as readonly string[]).includes(kind)) return undefined;
  const ref = row.provenance_ref;
  return { kind: kind as ProvenanceKind, ...(ref !== null && ref !== undefined ? { ref: String(ref) } : {}) };
}
