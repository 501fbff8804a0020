import { createHash } from "node:crypto";
import type { Clock } from "../foundation/ports/clock.ts";
import type { HistoryImport, HistoryImports } from "../foundation/store/history-imports.ts";
import { LiloError, NotFoundError } from "../foundation/errors.ts";
import type { Forgetting } from "../memory/forgetting/forget-everywhere.ts";
import { planHistory, type HistoryPlan } from "../memory/history/history-plan.ts";
import type { HistoryFormat } from "../memory/history/history-types.ts";
import { readExport } from "../memory/history/read-export.ts";

export type { HistoryPlan, PlannedSpeaker, SpeakerRole } from "../memory/history/history-plan.ts";
export type { HistoryImport } from "../foundation/store/history-imports.ts";
export { HISTORY_FORMATS, HISTORY_FILE_MAX_BYTES, HISTORY_MESSAGE_MAX_CHARS, type HistoryFormat } from "../memory/history/history-types.ts";

/** A plan with what the chat log already holds of it. */
export interface HistoryDryRun extends HistoryPlan {
  userId: string;
  /** Messages the chat log does not hold yet: what `apply` would add. */
  newMessages: number;
}

/**
 * `lilo import-history`: a chat history a person already has (WhatsApp,
 * Telegram, ChatGPT, Claude) read, planned with who is who (a dry run that
 * writes nothing), written into the chat log in conversations of its own, and
 * undone through forget everywhere.
 */
export interface HistoryApi {
  /** Reads and plans a file; throws a sentence (`invalid-input`) for a file it cannot take whole. */
  plan(bytes: Uint8Array, o: { fileName: string; userId: string; format?: HistoryFormat | "auto" | undefined; me?: string | undefined }): HistoryDryRun;
  /** Writes the plan's new messages; refused while it is not known which speaker is the person. */
  apply(plan: HistoryDryRun): { id: number; added: number };
  /** The user's imports, newest first. */
  list(userId: string): HistoryImport[];
  /** Forgets every message an import brought (`apply: false` only counts them). */
  undo(userId: string, id: number, o: { apply: boolean }): Promise<{ import: HistoryImport; messages: number }>;
}

/** What the history use cases need. */
export interface HistoryDeps {
  imports: HistoryImports;
  forgetting: Forgetting;
  clock: Clock;
  timeZone: string;
  pauseMinutes: number;
  /** The names Lilo knows each user by. */
  userNames: Record<string, string>;
}

/** Builds the history import use cases. */
export function historyApi(d: HistoryDeps): HistoryApi {
  return {
    plan: (bytes, o) => {
      const x = readExport(bytes, { fileName: o.fileName, format: o.format, timeZone: d.timeZone, now: d.clock.now() });
      const fileHash = createHash("sha256").update(bytes).digest("hex");
      const known = d.userNames[o.userId];
      const plan = planHistory(x, { fileName: o.fileName, fileHash, me: o.me, knownNames: known ? [known] : [], pauseMinutes: d.pauseMinutes });
      const have = d.imports.knownKeys(
        o.userId,
        plan.planned.map((r) => r.key),
      );
      return { ...plan, userId: o.userId, newMessages: plan.planned.filter((r) => !have.has(r.key)).length };
    },
    apply: (plan) => {
      if (plan.me === undefined)
        throw new LiloError("invalid-input", `which speaker are you? Say it with --me (${plan.speakers.map((s) => s.name).join(", ")})`);
      const now = d.clock.now().toISOString();
      return d.imports.write({
        userId: plan.userId,
        format: plan.format,
        fileName: plan.fileName,
        fileHash: plan.fileHash,
        me: plan.me,
        now,
        rows: plan.planned,
      });
    },
    list: (userId) => d.imports.list(userId),
    undo: async (userId, id, o) => {
      const found = d.imports.get(userId, id);
      if (!found) throw new NotFoundError(`no import ${id} of ${userId} (lilo import-history list shows them)`);
      const ids = d.imports.messageIds(userId, id);
      if (o.apply) {
        const items = ids.map((mid) => ({ kind: "messages" as const, id: mid, text: "", createdAt: "", match: "words" as const, action: "redact" as const }));
        await d.forgetting.apply({ userId, words: [], items });
        d.imports.markUndone(userId, id, d.clock.now().toISOString());
      }
      return { import: found, messages: ids.length };
    },
  };
}
