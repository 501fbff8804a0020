import type { LiloConfig } from "../../foundation/config/config.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { ChatRequest } from "../../foundation/ports/chat-model.ts";
import type { ChatLog, ChatLogMessage } from "../../foundation/store/chat-log.ts";
import type { MemoryHit } from "../../memory/memory.ts";
import { Turn } from "./context.ts";
import type { TurnSheet } from "./sheet.ts";
import type { MemoryBlocks } from "./memory-blocks.ts";
import type { TurnContext } from "./types.ts";
import { applyBudget } from "./request-budget.ts";
import { LiloError } from "../../foundation/errors.ts";

/** What a preview reads: the sheet, the running conversation, the clock and the budget. */
export interface PreviewDeps {
  sheet: TurnSheet;
  chatLog: ChatLog;
  clock: Clock;
  language: "de" | "en";
  config: { conversationPauseMinutes: number; budget: LiloConfig["budget"] };
}

/** What `lilo preview` shows: the request the model would get, the notes kept, every memory block. */
export interface Preview {
  request: ChatRequest;
  notes: MemoryHit[];
  blocks: MemoryBlocks;
}

/**
 * The cheat sheet Lilo would send for `text` now, storing nothing and calling
 * no model: `readOnly` is the chain of the middleware that store nothing and
 * call no model, which add their sections as in a real turn (greeting
 * context, due topic, diary question).
 */
export async function previewTurn(deps: PreviewDeps, readOnly: (ctx: TurnContext) => Promise<void>, msg: { userId: string; text: string }): Promise<Preview> {
  // As a real turn: an empty message is no message (Lilo never answers one).
  if (!msg.text.trim()) throw new LiloError("invalid-input", "the message to preview is empty: give the text Lilo would get");
  const now = deps.clock.now();
  const last = deps.chatLog.latestConversation(msg.userId);
  const running = last && now.getTime() - Date.parse(last.lastMessageAt) <= deps.config.conversationPauseMinutes * 60_000;
  // A new conversation gets an id after every stored one, so "the messages before it" are the real ones.
  const conversationId = running ? last.id : Number.MAX_SAFE_INTEGER;
  const userMessage: ChatLogMessage = {
    id: Number.MAX_SAFE_INTEGER,
    userId: msg.userId,
    conversationId,
    role: "user",
    text: msg.text,
    model: null,
    mood: null,
    proactive: false,
    createdAt: now.toISOString(),
  };
  const ctx = new Turn({ kind: "preview", message: userMessage });
  ctx.attach({ userMessage, text: msg.text, conversationId, isNewConversation: !running, previousAnswer: undefined, now });
  await readOnly(ctx);
  let blocks: MemoryBlocks | undefined;
  // The same budget as a real turn, so the preview is what the model would receive.
  const { request } = applyBudget(await deps.sheet.assemble(ctx, (b) => (blocks = b)), deps.config.budget, deps.language);
  return { request, notes: blocks!.notes.kept, blocks: blocks! };
}
