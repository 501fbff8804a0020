import type { Memory } from "../../memory/memory.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { VectorStore } from "../../foundation/ports/vector-index.ts";
import { cosine } from "../../foundation/util/vector.ts";
import { otherPerson, subjectOf } from "../extraction/subject.ts";

/** A memory the judge gets to see. The score only selected it; it decides nothing. */
export interface Candidate {
  /** "n<id>" for a note, "p<id>" for a profile entry: what the judge answers with. */
  key: string;
  source: "note" | "profile";
  id: number;
  text: string;
  createdAt: string;
  /** Best similarity to the message or the previous answer. */
  score: number;
  /** Which text found it. */
  near: Array<"message" | "answer">;
  category?: string;
  /** Whom a note is about ("user", "lilo" or a name), where recorded. */
  subject?: string;
  /** The store of a memory marked wrong on /why; notes when unset. */
  store?: VectorStore;
}

/** The two texts to search near, for one user. */
interface CandidateQuery {
  userId: string;
  message: string;
  previousAnswer: string | undefined;
  /** How many per text and source. */
  k: number;
  minScore: number;
}

/**
 * Candidates for a correction (docs/spec.md §6.2): notes near the user's message AND
 * near Lilo's previous answer (the user often contradicts what she just
 * said), plus profile entries near either. Profile entries have no vectors,
 * so they are embedded on the fly; this runs only after a prefilter hit.
 */
export async function findCandidates(memory: Memory, profile: ProfileStore, q: CandidateQuery): Promise<Candidate[]> {
  // Candidates are found by meaning: without the embedding model there are none, and nothing is corrected.
  if (!(await memory.canEmbed())) return [];
  const texts: Array<["message" | "answer", string]> = [["message", q.message]];
  if (q.previousAnswer?.trim()) texts.push(["answer", q.previousAnswer]);
  const vectors = new Map<"message" | "answer", Float32Array>();
  for (const [which, text] of texts) vectors.set(which, await memory.embed(text));

  const found = new Map<string, Candidate>();
  const note = (c: Omit<Candidate, "near">, which: "message" | "answer") => {
    const seen = found.get(c.key);
    if (!seen) found.set(c.key, { ...c, near: [which] });
    else {
      seen.score = Math.max(seen.score, c.score);
      if (!seen.near.includes(which)) seen.near.push(which);
    }
  };

  for (const [which, vector] of vectors) {
    const hits = await memory.searchVector(vector, { userId: q.userId, store: "notes", k: q.k, minScore: q.minScore });
    for (const h of hits) {
      note(
        { key: `n${h.id}`, source: "note", id: h.id, text: h.text, createdAt: h.createdAt, score: h.score, ...(h.subject ? { subject: h.subject } : {}) },
        which,
      );
    }
  }

  const entries = profile.list(q.userId);
  const entryVectors: Float32Array[] = [];
  for (const e of entries) entryVectors.push(await memory.embed(e.text));
  for (const [which, vector] of vectors) {
    const scored = entries
      .map((e, i) => ({ e, score: cosine(vector, entryVectors[i]!) }))
      .filter((s) => s.score >= q.minScore)
      .sort((a, b) => b.score - a.score)
      .slice(0, q.k);
    for (const { e, score } of scored) {
      note({ key: `p${e.id}`, source: "profile", id: e.id, text: e.text, createdAt: e.createdAt, score, category: e.category }, which);
    }
  }
  return aboutTheSamePerson([...found.values()], q.message).sort((a, b) => b.score - a.score);
}

/**
 * The candidates a correction may touch: never a note about
 * another person than the one the message is about — "Nein, ich habe keinen
 * Hund" must not correct "Schwester Anna hat einen Hund".
 */
export function aboutTheSamePerson<C extends { subject?: string | undefined }>(candidates: C[], message: string): C[] {
  const about = subjectOf(message, { userName: "", assistantName: "" });
  return candidates.filter((c) => !otherPerson(about, c.subject));
}
