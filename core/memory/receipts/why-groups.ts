/**
 * One fact is often kept in several stores at once (a profile entry, an
 * important memory and a note of the same words, each written by its own
 * step): /why shows it once, naming every store and reference, instead of
 * listing the same sentence three times.
 */
import type { WhyItem } from "./receipts.ts";

/** Items of a receipt with the same text, in the order the first of them came. */
export interface WhyGroup {
  /** The text as the first item has it. */
  text: string;
  items: WhyItem[];
}

/** The same text: case, surrounding space and a closing full stop aside. */
const sameText = (text: string) => text.normalize("NFC").replace(/\s+/g, " ").trim().replace(/[.!]$/u, "").toLowerCase();

/** Groups a receipt's items by their text; a group of one is an item on its own. */
export function groupWhyItems(items: readonly WhyItem[]): WhyGroup[] {
  const groups = new Map<string, WhyGroup>();
  for (const item of items) {
    const key = sameText(item.text);
    const group = groups.get(key);
    if (group) group.items.push(item);
    else groups.set(key, { text: item.text, items: [item] });
  }
  return [...groups.values()];
}
