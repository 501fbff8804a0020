/**
 * Memory from a chat history the person brought along: after an import has
 * written its messages into the chat log, an extraction reads them piece by
 * piece (one call a conversation, or a piece of a long one) and writes notes,
 * profile facts and important memories, and follow-up topics from recent
 * conversations (history-followups.ts), each with the import as its
 * provenance. It runs in the background as a maintenance job whose payload
 * records how far it got after every piece, so a killed process continues
 * from there on its next run; a spent budget pauses it, and says so.
 */
import { z } from "zod";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { ModelRegistry } from "../../foundation/models/registry.ts";
import type { ModelProblems } from "../../foundation/store/model-problems.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { TopicsStore } from "../../foundation/store/topics.ts";
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import type { HistoryImports, ImportedMessage } from "../../foundation/store/history-imports.ts";
import { MAINTENANCE_KIND_PREFIX, type Job, type JobsStore } from "../../foundation/store/jobs.ts";
import { currentProcess, isRunning } from "../../foundation/store/writer-lock.ts";
import { ConfigError, LiloError, describeError } from "../../foundation/errors.ts";
import { tagCalls } from "../../foundation/usage/call-tags.ts";
import { isCancelled } from "../../foundation/models/call-gate.ts";
import type { Memory } from "../../memory/memory.ts";
import type { Persona } from "../../conversation/persona/persona.ts";
import { firstChunk, transcriptLine } from "../../memory/history/extraction-chunks.ts";
import { extractHistoryPiece, type HistoryExtraction as Items } from "./history-extract.ts";
import { asksForFollowups, writeFollowups, type FollowupRules } from "./history-followups.ts";

/** The job kind of an import's extraction (a maintenance run: the after-reply runner leaves it to this code). */
export const HISTORY_EXTRACTION_JOB = `${MAINTENANCE_KIND_PREFIX}history-extraction`;

/** Messages read from the database at a time; a piece never spans more. */
const BATCH = 600;

const progressSchema = z.object({
  importId: z.number().int(),
  format: z.string(),
  /** The last message read: the next piece starts after it. */
  lastMessageId: z.number().int(),
  /** Messages read so far, of `total`. */
  done: z.number().int(),
  total: z.number().int(),
  calls: z.number().int(),
  /** Characters sent to and received from the model (a quarter of them is about the tokens). */
  sentChars: z.number().int(),
  receivedChars: z.number().int(),
  /** Memories written so far. */
  written: z.number().int(),
  /** Why it waits (a spent budget), or null while it may run. */
  paused: z.string().nullable(),
  owner: z.object({ pid: z.number().int(), startTicks: z.string().nullable() }).nullable(),
});

/** How far one import's extraction got, as its job row records it. */
export type HistoryExtractionProgress = z.infer<typeof progressSchema> & { userId: string; jobId: number };

/** What a run of the pending extractions did. */
export interface HistoryExtractionOutcome {
  /** Imports whose extraction finished in this run. */
  finished: number[];
  /** The budget is spent: the extractions wait, with this sentence. */
  paused?: string;
  /** Another live process runs these imports' extraction. */
  busy: number[];
}

/** What the extraction works with. */
export interface HistoryExtractionDeps {
  imports: HistoryImports;
  jobs: JobsStore;
  models: ModelRegistry;
  memory: Memory;
  profile: ProfileStore;
  topics: TopicsStore;
  /** A follow-up about one of the person's boundaries is not kept. */
  boundaries?: BoundaryGuard | undefined;
  problems: ModelProblems;
  persona: Persona;
  clock: Clock;
  logger: Logger;
  /** One call reads at most this many characters of transcript. */
  maxInputChars: number;
  maxTokens: number;
  /** Which conversations are asked for follow-ups, and when those fall due. */
  followups: FollowupRules;
}

/** The provenance reference of everything an import's extraction writes: `whatsapp:3`. */
export const importRef = (format: string, importId: number) => `${format}:${importId}`;

/** The background extraction of imported chat histories; see the file comment. */
export class HistoryExtraction {
  constructor(private readonly d: HistoryExtractionDeps) {}

  /** Records the extraction of an import just written; it runs on the next `run` (the CLI's, or the bot's start). */
  queue(userId: string, importId: number): number {
    const total = this.d.imports.countAfter(userId, importId, 0);
    const p: z.infer<typeof progressSchema> = {
      importId,
      format: this.d.imports.get(userId, importId)?.format ?? "unknown",
      lastMessageId: 0,
      done: 0,
      total,
      calls: 0,
      sentChars: 0,
      receivedChars: 0,
      written: 0,
      paused: null,
      owner: null,
    };
    return this.d.jobs.add(userId, HISTORY_EXTRACTION_JOB, p, this.now());
  }

  /** The extractions not finished yet, oldest first, with their progress. */
  pending(userId?: string): HistoryExtractionProgress[] {
    return this.d.jobs.pendingOf(HISTORY_EXTRACTION_JOB).flatMap((job) => {
      const p = progressSchema.safeParse(job.payload);
      return p.success && (userId === undefined || job.userId === userId) ? [{ ...p.data, userId: job.userId, jobId: job.id }] : [];
    });
  }

  /** Ends the extraction of an undone import: nothing more is read from it. */
  cancel(userId: string, importId: number): void {
    for (const p of this.pending(userId)) if (p.importId === importId) this.d.jobs.done(p.jobId, this.now());
  }

  /**
   * Runs every pending extraction until it finishes, the budget pauses it,
   * or `signal` stops it between pieces (it stays resumable). A model error
   * other than the budget is thrown; the job stays where it got to.
   */
  async run(o: { signal?: AbortSignal; onProgress?: (p: HistoryExtractionProgress) => void } = {}): Promise<HistoryExtractionOutcome> {
    const out: HistoryExtractionOutcome = { finished: [], busy: [] };
    for (const job of this.d.jobs.pendingOf(HISTORY_EXTRACTION_JOB)) {
      const claimed = this.claim(job);
      if (!claimed) continue;
      if (claimed === "busy") {
        out.busy.push((job.payload as { importId: number }).importId);
        continue;
      }
      const r = await this.runOne(claimed, o);
      if (r === "finished") out.finished.push(claimed.importId);
      else if (r === "stopped") return out;
      else return { ...out, paused: r.paused };
    }
    return out;
  }

  /** Takes the job for this process, unless another live process runs it; undefined for a payload of no known shape. */
  private claim(job: Job): HistoryExtractionProgress | "busy" | undefined {
    return this.d.jobs.exclusive(() => {
      const parsed = progressSchema.safeParse(job.payload);
      if (!parsed.success) {
        this.d.jobs.failed(job.id, `no extraction progress in the job: ${parsed.error.message}`, this.now(), true);
        return undefined;
      }
      const owner = parsed.data.owner;
      if (owner && owner.pid !== process.pid && isRunning(owner)) return "busy";
      const p = { ...parsed.data, owner: currentProcess() };
      this.d.jobs.progress(job.id, p, this.now());
      return { ...p, userId: job.userId, jobId: job.id };
    });
  }

  private async runOne(
    p: HistoryExtractionProgress,
    o: { signal?: AbortSignal | undefined; onProgress?: ((p: HistoryExtractionProgress) => void) | undefined },
  ): Promise<"finished" | "stopped" | { paused: string }> {
    const imp = this.d.imports.get(p.userId, p.importId);
    if (!imp || imp.undoneAt) {
      this.d.jobs.done(p.jobId, this.now());
      return "finished";
    }
    const ref = importRef(imp.format, imp.id);
    const userName = this.d.persona.isNamed(p.userId) ? this.d.persona.userName(p.userId) : imp.me;
    o.onProgress?.(p);
    for (;;) {
      if (o.signal?.aborted) {
        this.save({ ...p, owner: null });
        return "stopped";
      }
      const batch = this.d.imports.messagesAfter(p.userId, p.importId, p.lastMessageId, BATCH);
      if (!batch.length) break;
      const piece = firstChunk(
        batch.map((m) => ({ ...m, conversation: m.conversationId })),
        imp.me,
        this.d.maxInputChars,
      );
      let written: number;
      try {
        written = await this.readPiece(p.userId, piece, { ref, title: imp.fileName, me: imp.me, userName }, p);
      } catch (err) {
        // Lilo is stopping: the piece is read again on the next run.
        if (isCancelled(err)) {
          this.save({ ...p, owner: null });
          return "stopped";
        }
        const spent = err instanceof LiloError && err.code === "budget-spent";
        if (spent || err instanceof ConfigError) {
          // The configuration's own sentence lists every way to a model; here it is enough to say that one is missing.
          const paused = spent ? err.message : "no language model is configured to extract with (npx lilo setup sets one)";
          this.save({ ...p, paused, owner: null });
          this.d.logger.info("history extraction paused", { reason: paused, importId: p.importId, done: p.done, total: p.total });
          return { paused };
        }
        throw new LiloError("import", `the extraction of import ${p.importId} stopped at ${p.done} of ${p.total} messages: ${describeError(err)}`, {
          cause: err,
        });
      }
      Object.assign(p, { lastMessageId: piece.at(-1)!.id, done: p.done + piece.length, written: p.written + written, paused: null });
      this.save(p);
      o.onProgress?.(p);
    }
    this.d.jobs.done(p.jobId, this.now());
    this.d.logger.info("history extraction finished", { importId: p.importId, calls: p.calls, written: p.written });
    return "finished";
  }

  /** One call over a piece and its memories written; returns how many were new. */
  private async readPiece(
    userId: string,
    piece: ImportedMessage[],
    who: { ref: string; title: string; me: string; userName: string },
    p: HistoryExtractionProgress,
  ): Promise<number> {
    const others = new Map<string, boolean>();
    for (const m of piece) if (m.speaker !== null) others.set(m.speaker, m.role === "assistant");
    const model = tagCalls(this.d.models.forRole("extraction"), { purpose: "history", userId });
    // Recent by the conversation's end, not the piece's: the earlier pieces of a recent conversation are asked too.
    const end = this.d.imports.conversationEnd(userId, piece[0]!.conversationId);
    const followups = asksForFollowups(end, this.d.clock.now(), this.d.followups);
    const call = await extractHistoryPiece(
      model,
      {
        people: {
          userName: who.userName,
          meName: who.me,
          others: [...others].map(([name, assistant]) => ({ name, assistant })),
          assistantName: this.d.persona.name,
          language: this.d.persona.language,
        },
        title: who.title,
        lines: piece.map((m) => transcriptLine({ ...m, conversation: m.conversationId }, who.me, this.d.maxInputChars)),
        ownTexts: piece.filter((m) => m.speaker === null).map((m) => m.text),
        otherTexts: piece.filter((m) => m.speaker !== null).map((m) => m.text),
        followups,
      },
      this.d.maxTokens,
    );
    p.calls++;
    p.sentChars += call.sentChars;
    p.receivedChars += call.receivedChars;
    if (!call.ok) {
      // An unusable answer costs this piece's memories, not the import: counted, and the extraction goes on.
      this.d.problems.record(userId, "extraction", "dropped", `history import: ${call.problem}`, this.now());
      return 0;
    }
    const last = piece.at(-1)!;
    const written = await this.remember(userId, call.extraction, { ref: who.ref, messageId: last.id, at: last.createdAt });
    if (!followups || !end) return written;
    const at = { ref: who.ref, end, now: this.d.clock.now(), rules: this.d.followups };
    return written + writeFollowups(this.d, userId, call.extraction.followups, at);
  }

  /** Writes a piece's memories, each with the import as provenance and the time the chat had then. */
  private async remember(userId: string, x: Items, at: { ref: string; messageId: number; at: string }): Promise<number> {
    const origin = { provenance: "import", provenance_ref: at.ref };
    let written = 0;
    for (const f of x.facts) {
      const r = await this.d.memory.add({
        text: f.text,
        userId,
        store: "notes",
        createdAt: at.at,
        extra: { kind: "fact", source_message_id: at.messageId, subject: f.about, ...origin },
      });
      if (r.added) written++;
    }
    for (const i of x.important) {
      const r = await this.d.memory.add({
        text: i.text,
        userId,
        store: "important",
        createdAt: at.at,
        extra: { weight: i.weight, source_message_id: at.messageId, subject: i.about, ...origin },
      });
      if (r.added) written++;
    }
    for (const f of x.profile) if (this.d.profile.add(userId, f.category, f.text, this.now(), { kind: "import", ref: at.ref }).added) written++;
    return written;
  }

  private save(p: HistoryExtractionProgress): void {
    const { userId: _u, jobId, ...payload } = p;
    this.d.jobs.progress(jobId, payload, this.now());
  }

  private now(): string {
    return this.d.clock.now().toISOString();
  }
}
