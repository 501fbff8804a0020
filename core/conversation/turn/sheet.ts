import type { LiloConfig } from "../../foundation/config/config.ts";
import type { ChatRequest } from "../../foundation/ports/chat-model.ts";
import type { Memory } from "../../memory/memory.ts";
import type { ChatLog } from "../../foundation/store/chat-log.ts";
import type { ProfileStore } from "../../foundation/store/profile.ts";
import type { ShortTermStore } from "../../foundation/store/short-term.ts";
import type { RulesStore } from "../../foundation/store/rules.ts";
import type { ChatRecallDeps } from "../../memory/recall/sheet-recall.ts";
import type { Persona } from "../persona/persona.ts";
import type { MarkerRegistry } from "../markers/marker-registry.ts";
import type { TurnContext } from "./types.ts";
import { buildCheatSheet } from "./cheat-sheet.ts";
import { selectMemoryBlocks, type MemoryBlocks } from "./memory-blocks.ts";
import { markerInstructions } from "../prompts/markers.ts";
import { proactivePlaceholder } from "../prompts/turn-texts.ts";
import { historyTurns } from "./history.ts";
import { formatLocal } from "../../foundation/util/time.ts";

/** Where the sheet's memories and turns come from. */
export interface SheetSources {
  persona: Persona;
  memory: Memory;
  profile: ProfileStore;
  /** The chat-log search with its meaning side, for the verbatim passages. */
  chatRecall: ChatRecallDeps;
  shortTerm: ShortTermStore;
  rules: RulesStore;
  chatLog: ChatLog;
  /** The markers the prompt teaches now (native tools leave the fetch markers out). */
  markerNames: () => string[];
  markers: MarkerRegistry;
}

/** The cheat sheet of a turn (docs/spec.md §4 step 3), assembled for the real turn and for `lilo preview` alike. */
export interface TurnSheet {
  /** Selects the memories and builds the request; `report` receives what was selected. */
  assemble(ctx: TurnContext, report: (b: MemoryBlocks) => void): Promise<ChatRequest>;
}

/** The sheet from its sources and its configuration slice. */
export function createTurnSheet(s: SheetSources, config: { memory: LiloConfig["memory"]; timezone: string }): TurnSheet {
  return {
    async assemble(ctx, report) {
      const m = config.memory;
      const language = s.persona.language;
      const shortTerm = ctx.isNewConversation ? s.shortTerm.latest(ctx.userId)?.text : undefined;
      const blocks = await selectMemoryBlocks(
        { config, memory: s.memory, profile: s.profile, chatRecall: s.chatRecall },
        { userId: ctx.userId, text: ctx.text, conversationId: ctx.conversationId, shortTermChars: shortTerm?.length ?? 0 },
      );
      report(blocks);
      const recent = historyTurns(s.chatLog.recent(ctx.conversationId, m.recentMessages, ctx.userMessage.id), proactivePlaceholder(language, s.persona.name));
      return buildCheatSheet({
        language,
        userName: s.persona.userName(ctx.userId),
        assistantName: s.persona.name,
        timezone: config.timezone,
        persona: s.persona.chatPrompt(ctx.userId),
        markerInstructions: markerInstructions(language, s.markerNames(), s.markers),
        now: formatLocal(ctx.now, config.timezone, language),
        rules: s.rules.list(ctx.userId, true).map((r) => r.text),
        profile: blocks.profile.kept,
        shortTerm,
        important: blocks.important.kept,
        notes: blocks.notes.kept,
        passages: blocks.passages.kept,
        thoughts: blocks.thoughts.kept,
        slots: ctx.sheet,
        recent,
        message: ctx.text,
      });
    },
  };
}
