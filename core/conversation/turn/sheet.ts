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
import type { BoundaryGuard } from "../../memory/boundaries/boundaries.ts";
import { boundariesBlock } from "../prompts/boundaries.ts";

/** Where the sheet's memories and turns come from. */
interface SheetSources {
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
  /** Topics the user asked Lilo never to bring up: left off the sheet unless this message raises them. */
  boundaries?: BoundaryGuard;
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
      const check = s.boundaries?.for(ctx.userId, ctx.text);
      const latest = ctx.isNewConversation ? s.shortTerm.latest(ctx.userId)?.text : undefined;
      const shortTerm = latest && check?.about(latest) ? undefined : latest;
      const selected = await selectMemoryBlocks(
        { config, memory: s.memory, profile: s.profile, chatRecall: s.chatRecall },
        { userId: ctx.userId, text: ctx.text, conversationId: ctx.conversationId, shortTermChars: shortTerm?.length ?? 0 },
      );
      const blocks = check ? withinBoundaries(selected, check.filter) : selected;
      report(blocks);
      const recent = historyTurns(s.chatLog.recent(ctx.conversationId, m.recentMessages, ctx.userMessage.id), proactivePlaceholder(language, s.persona.name));
      return buildCheatSheet({
        language,
        userName: s.persona.userName(ctx.userId),
        assistantName: s.persona.name,
        timezone: config.timezone,
        persona: s.persona.chatPrompt(ctx.userId),
        markerInstructions: markerInstructions(language, s.markerNames(), s.markers),
        // All of them, not only those this message leaves alone: the stable prefix stays byte-identical between turns.
        boundaries: boundariesBlock(language, s.boundaries?.for(ctx.userId).list ?? []),
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

/** The blocks without the items about a boundary (what the budget left out stays as it was). */
function withinBoundaries(b: MemoryBlocks, filter: <T>(items: T[], textOf: (item: T) => string) => T[]): MemoryBlocks {
  const text = (i: { text: string }) => i.text;
  const passage = (p: MemoryBlocks["passages"]["kept"][number]) => p.messages.map((m) => m.text).join(" ");
  return {
    ...b,
    profile: { ...b.profile, kept: filter(b.profile.kept, text) },
    important: { ...b.important, kept: filter(b.important.kept, text) },
    notes: { ...b.notes, kept: filter(b.notes.kept, text) },
    passages: { ...b.passages, kept: filter(b.passages.kept, passage) },
    thoughts: { ...b.thoughts, kept: filter(b.thoughts.kept, text) },
  };
}
