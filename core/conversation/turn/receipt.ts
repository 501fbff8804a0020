/**
 * What goes on an answer's receipt: the ids of every memory on
 * its sheet, the chat messages of its verbatim passages, and the rules in
 * force. Recorded with the stored answer (answer.ts), read by /why.
 */
import type { ReceiptItem } from "../../foundation/store/receipts.ts";
import type { MemoryBlocks } from "./memory-blocks.ts";
import { sheetMessageIds } from "../../memory/recall/passage-packing.ts";

/** The receipt items of a sheet's blocks and rules. */
export function receiptItems(blocks: MemoryBlocks, ruleIds: number[]): ReceiptItem[] {
  const of = (store: ReceiptItem["store"], rows: { id: number }[]) => rows.map((r) => ({ store, id: r.id }));
  const messages = sheetMessageIds(blocks.passages.kept).map((id) => ({ store: "messages" as const, id }));
  return [
    ...of("important", blocks.important.kept),
    ...of("profile", blocks.profile.kept),
    ...of("notes", blocks.notes.kept),
    ...messages,
    ...of("thoughts", blocks.thoughts.kept),
    ...ruleIds.map((id) => ({ store: "rules" as const, id })),
  ];
}
