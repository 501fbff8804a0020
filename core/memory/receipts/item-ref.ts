/**
 * Short references to what a receipt lists ("N12" = note 12, "M305" =
 * chat message 305), typed by the user on Matrix and in the terminal and
 * carried in Telegram's button data.
 */
import type { ReceiptStore } from "../../foundation/store/receipts.ts";

const LETTER: Record<ReceiptStore, string> = {
  notes: "N",
  important: "I",
  thoughts: "T",
  diary: "D",
  profile: "P",
  rules: "R",
  messages: "M",
  boundaries: "B",
};
const STORE = Object.fromEntries(Object.entries(LETTER).map(([s, l]) => [l, s])) as Record<string, ReceiptStore>;

/** The reference of one item: its store's letter and its id. */
export function itemRef(store: ReceiptStore, id: number): string {
  return `${LETTER[store]}${id}`;
}

/** Reads a reference ("N12", "n12"); undefined for anything else. */
export function parseItemRef(text: string): { store: ReceiptStore; id: number } | undefined {
  const m = /^([A-Za-z])(\d{1,12})$/.exec(text.trim());
  const store = m && STORE[m[1]!.toUpperCase()];
  return store ? { store, id: Number(m[2]) } : undefined;
}
