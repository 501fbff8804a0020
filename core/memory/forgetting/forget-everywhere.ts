/**
 * Forget everywhere: everything of one user that holds some words
 * or means the same — notes, important memories, profile entries, thoughts,
 * diary entries, topics, short-term summaries, suggestions and chat-log
 * messages — found first and shown, then, after a yes, removed or redacted
 * with every derived copy: rows, vectors, keyword indexes (by trigger),
 * message vectors, receipts and the logs that quote it. Derived texts (diary,
 * thoughts, summaries) are rewritten without the sentences that hold the
 * words, or dropped when nothing else is left. Chat messages keep their
 * place with their text replaced by a marker that search never returns.
 */
import type { Clock } from "../../foundation/ports/clock.ts";
import type { VectorStore } from "../../foundation/ports/vector-index.ts";
import { VECTOR_STORES } from "../../foundation/ports/vector-index.ts";
import type { ForgetRows, ForgetTable, FoundRow } from "../../foundation/store/forget-rows.ts";
import type { ReceiptsStore, ReceiptStore } from "../../foundation/store/receipts.ts";
import type { Memory } from "../memory.ts";
import type { MessageVectors } from "../recall/message-vectors.ts";
import { forgetWords, holdsAll, withoutSentences } from "./forget-words.ts";
import { LiloError } from "../../foundation/errors.ts";
import { said } from "../../foundation/error-texts.ts";

/** What a found row becomes after the yes. */
type ForgetAction = "remove" | "rewrite" | "redact";

/** One place that holds what is to be forgotten. */
export interface ForgetItem {
  kind: ForgetTable;
  id: number;
  text: string;
  createdAt: string;
  /** Found by its words, or by meaning alone. */
  match: "words" | "meaning";
  action: ForgetAction;
}

/** Everything a forget found, before the yes. */
export interface ForgetPlan {
  userId: string;
  /** The words looked for. */
  words: string[];
  items: ForgetItem[];
}

/** What a forget did. */
export interface ForgetOutcome {
  removed: number;
  rewritten: number;
  redacted: number;
  /** Log rows (corrections, searches, questions, pushes) that quoted the words. */
  scrubbed: number;
}

/** Chat messages found per forget, at most. */
const MAX_MESSAGES = 200;
/** Hits per store looked at by meaning. */
const MEANING_K = 20;
/** Derived texts: rewritten without the words' sentences. */
const DERIVED = new Set<ForgetTable>(["diary", "thoughts", "short_term"]);

/** The replacement of a forgotten chat message, per persona language; it has no searchable word of its own. */
export const REDACTED_TEXT = { de: "⟦…⟧", en: "⟦…⟧" } as const;

/** What forgetting needs. */
interface ForgettingDeps {
  memory: Memory;
  rows: ForgetRows;
  receipts: ReceiptsStore;
  messageVectors: MessageVectors;
  clock: Clock;
  language: "de" | "en";
}

/** Finds and forgets; see the file comment. */
export class Forgetting {
  constructor(private readonly d: ForgettingDeps) {}

  /**
   * Everything of `userId` that holds `text`'s words or (memory stores, chat log) means the same.
   * Throws "invalid-input" when `text` has no meaningful word: a letter or a stop word would list nearly everything.
   */
  async find(userId: string, text: string): Promise<ForgetPlan> {
    const words = forgetWords(text);
    if (!words.length) throw new LiloError("invalid-input", said("forgetNeedsWord", clip(text)));
    return this.collect(userId, text, words);
  }

  /** Rows that hold every one of `words` (none: no row by words) or mean the same as `text`. */
  private async collect(userId: string, text: string, words: string[]): Promise<ForgetPlan> {
    const items = new Map<string, ForgetItem>();
    const holds = (t: string) => holdsAll(t, words);
    const put = (kind: ForgetTable, r: FoundRow, match: ForgetItem["match"]) => {
      const key = `${kind}:${r.id}`;
      if (items.has(key)) return;
      items.set(key, { kind, id: r.id, text: r.text, createdAt: r.createdAt, match, action: actionFor(kind, match, r.text, words) });
    };
    for (const kind of ["notes", "important", "thoughts", "diary", "profile", "topics", "short_term", "suggestions"] as const) {
      for (const r of this.d.rows.findByWords(kind, userId, words, holds)) put(kind, r, "words");
    }
    for (const r of this.d.rows.findByWords("messages", userId, words, holds, MAX_MESSAGES)) put("messages", r, "words");
    for (const [kind, r] of await this.byMeaning(userId, text)) put(kind, r, "meaning");
    return { userId, words, items: [...items.values()] };
  }

  /** Forgets one item everywhere: the item itself and whatever holds its words or meaning. */
  async findItem(userId: string, kind: ForgetTable, id: number): Promise<ForgetPlan | undefined> {
    const [row] = this.d.rows.byIds(kind, userId, [id]);
    if (!row) return undefined;
    // A row of no meaningful word (a "Ja") is still the user's to forget: then it goes alone, with what means the same.
    const plan = await this.collect(userId, row.text, forgetWords(row.text));
    if (!plan.items.some((i) => i.kind === kind && i.id === id)) {
      plan.items.unshift({ kind, id, text: row.text, createdAt: row.createdAt, match: "words", action: actionFor(kind, "words", row.text, plan.words) });
    }
    return plan;
  }

  /**
   * Applies a plan after the yes. Each row is read again (it may have
   * changed or gone since the list was shown; another user's ids are
   * skipped), then removed, rewritten or redacted.
   */
  async apply(plan: Pick<ForgetPlan, "userId" | "words" | "items">): Promise<ForgetOutcome> {
    const { userId, words } = plan;
    const now = this.d.clock.now().toISOString();
    const out: ForgetOutcome = { removed: 0, rewritten: 0, redacted: 0, scrubbed: 0 };
    const redactedIds: number[] = [];
    for (const item of plan.items) {
      const [row] = this.d.rows.byIds(item.kind, userId, [item.id]);
      if (!row) continue;
      const action = item.kind === "messages" ? "redact" : actionFor(item.kind, item.match, row.text, words);
      const done = await this.applyOne(userId, item.kind, row, action, words, now);
      if (done) out[done]++;
      if (done === "redacted") redactedIds.push(item.id);
      const store = receiptStore(item.kind);
      if (store && (done === "removed" || done === "redacted")) this.d.receipts.dropItem(userId, { store, id: item.id }, now);
    }
    out.scrubbed = this.d.rows.scrubLogs(userId, words, now);
    // After the redaction: the vectors go, and the messages are marked handled so the blacked-out text is not embedded.
    await this.d.messageVectors.removeMany(userId, redactedIds);
    return out;
  }

  private async applyOne(
    userId: string,
    kind: ForgetTable,
    row: FoundRow,
    action: ForgetAction,
    words: string[],
    now: string,
  ): Promise<keyof Omit<ForgetOutcome, "scrubbed"> | undefined> {
    if (kind === "messages") return this.d.rows.redactMessage(userId, row.id, REDACTED_TEXT[this.d.language], now) ? "redacted" : undefined;
    const rest = action === "rewrite" ? withoutSentences(row.text, words) : "";
    if (isVectorStore(kind)) {
      const live = !this.d.memory.rows[kind].get(row.id)?.supersededAt;
      if (rest && live) {
        await this.d.memory.edit(kind, row.id, rest);
        return "rewritten";
      }
      // A superseded row (kept for undo) is forgotten too: its text must not come back.
      await this.d.memory.forget(kind, row.id);
      return "removed";
    }
    if (rest && (kind === "short_term" || kind === "topics")) return this.d.rows.rewrite(kind, userId, row.id, rest, now) ? "rewritten" : undefined;
    return this.d.rows.deleteRow(kind as "profile" | "topics" | "short_term" | "suggestions", userId, row.id) ? "removed" : undefined;
  }

  /** Rows close in meaning to `text`: memory stores by their vectors, chat messages by theirs; only close paraphrases count. */
  private async byMeaning(userId: string, text: string): Promise<[ForgetTable, FoundRow][]> {
    const floor = meaningFloor(this.d.memory.thresholds.dedupMinScore);
    const vector = await this.d.memory.vectorFor(text);
    const out: [ForgetTable, FoundRow][] = [];
    // Without the embedding model only the words find what to forget.
    if (!vector) return out;
    for (const store of VECTOR_STORES) {
      for (const h of await this.d.memory.searchVector(vector, { userId, store, k: MEANING_K, minScore: floor })) {
        out.push([store, { id: h.id, text: h.text, createdAt: h.createdAt }]);
      }
    }
    await this.d.messageVectors.catchUpAll(userId);
    const hits = (await this.d.messageVectors.search(userId, vector, MEANING_K, () => true)).filter((h) => h.score >= floor);
    for (const r of this.d.rows.byIds(
      "messages",
      userId,
      hits.map((h) => h.id),
    ))
      out.push(["messages", r]);
    return out;
  }
}

/** The request as a refusal quotes it: one line, at most 60 characters. */
function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/** The cosine from which a text found by meaning alone counts as the same thing: the duplicate floor, or 0.85 for an unmeasured embedder. */
function meaningFloor(dedup: number | undefined): number {
  return dedup ?? 0.85;
}

function isVectorStore(kind: ForgetTable): kind is VectorStore {
  return (VECTOR_STORES as readonly string[]).includes(kind);
}

/** Derived texts found by their words are rewritten; everything else found goes whole, chat messages are redacted. */
function actionFor(kind: ForgetTable, match: ForgetItem["match"], text: string, words: string[]): ForgetAction {
  if (kind === "messages") return "redact";
  if (DERIVED.has(kind) && match === "words" && holdsAll(text, words) && withoutSentences(text, words)) return "rewrite";
  return "remove";
}

/** The receipt store of a forget table, when receipts list such rows. */
function receiptStore(kind: ForgetTable): ReceiptStore | undefined {
  return kind === "short_term" || kind === "topics" || kind === "suggestions" ? undefined : kind;
}
