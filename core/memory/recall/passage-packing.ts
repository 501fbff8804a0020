/**
 * Packs ranked chat-log hits onto the cheat sheet so that as much evidence
 * as possible fits the memory budget: as many passages as the budget holds
 * (up to a cap), a neighbouring turn only where it adds something (the
 * question a short answer replies to, the answer to a question, a turn with
 * search words the hit lacks), long turns cut around the matching words,
 * passages that touch merged into one run, and no message twice.
 */
import type { PassageMessage, RecallPassage } from "./search.ts";
import { matchedWords, trimAround } from "./trim-around.ts";

/** A message on the sheet; `hit` when the search found it itself (not only as context). */
export interface SheetMessage extends PassageMessage {
  hit: boolean;
}

/**
 * A run of consecutive messages of one earlier conversation, oldest first,
 * as it goes on the sheet. `messages` names exactly the message ids shown
 * (receipts record them; `sheetMessageIds`).
 */
export interface SheetPassage {
  conversationId: number;
  messages: SheetMessage[];
  /** The best fused score among its hits. */
  score: number;
  /** Its first hit is a later conversation about remembering, not an original. */
  aboutRemembering: boolean;
}

/** Limits of one packing: characters the passages may use, most passages, the query's search words (stems). */
export interface PackOptions {
  maxChars: number;
  maxPassages: number;
  stems: readonly string[];
}

/** Characters a line costs beyond its text: marker, local time, speaker (see cheat-sheet.ts renderPassage). */
export const LINE_OVERHEAD = 32;
/** The blank line between two passages. */
const PASSAGE_GAP = 2;
/** A hit is cut around its matching words beyond this; a neighbour (context only) beyond the second. */
export const HIT_MAX_CHARS = 600;
export const CONTEXT_MAX_CHARS = 240;
/** The least of a hit worth showing when the budget is nearly spent. */
const MIN_HIT_CHARS = 160;
/** A hit shorter than this ("yes, last Friday") means little without the turn it answers. */
const SHORT_HIT_CHARS = 80;

/** The characters a passage costs on the sheet. */
export function passageCost(p: Pick<SheetPassage, "messages">): number {
  return p.messages.reduce((n, m) => n + m.text.length + LINE_OVERHEAD, PASSAGE_GAP);
}

/** Every message id on the sheet's passages, in sheet order. */
export function sheetMessageIds(passages: readonly SheetPassage[]): number[] {
  return passages.flatMap((p) => p.messages.map((m) => m.id));
}

/** A turn further apart than this in time is another moment, not the hit's context. */
const NEIGHBOUR_GAP_MS = 3 * 3_600_000;

/** Does the neighbour add something to the hit for this query? */
function neighbourAdds(hit: PassageMessage, neighbour: PassageMessage, side: "before" | "after", stems: readonly string[]): boolean {
  if (Math.abs(Date.parse(hit.createdAt) - Date.parse(neighbour.createdAt)) > NEIGHBOUR_GAP_MS) return false;
  const own = matchedWords(hit.text, stems);
  if ([...matchedWords(neighbour.text, stems)].some((w) => !own.has(w))) return true;
  const question = /\?\s*$/.test(hit.text.trim());
  return side === "before" ? !question && hit.text.trim().length < SHORT_HIT_CHARS : question;
}

/** The messages one hit brings: its neighbours where they add something, each cut to its length. */
function messagesFor(c: RecallPassage, stems: readonly string[], hitMax: number, withNeighbours: boolean): SheetMessage[] {
  const cut = (m: PassageMessage, max: number, hit: boolean): SheetMessage => ({ ...m, text: trimAround(m.text, stems, max), hit });
  const out: SheetMessage[] = [];
  if (withNeighbours && c.before && neighbourAdds(c.hit, c.before, "before", stems)) out.push(cut(c.before, CONTEXT_MAX_CHARS, false));
  out.push(cut(c.hit, hitMax, true));
  if (withNeighbours && c.after && neighbourAdds(c.hit, c.after, "after", stems)) out.push(cut(c.after, CONTEXT_MAX_CHARS, false));
  return out;
}

/**
 * Packs candidates (ranked hits with their whole neighbours, best first) into
 * at most `maxChars`: each hit in turn, with its helpful neighbours if they
 * fit, else alone, else cut shorter; a hit already shown as context becomes
 * a hit at no cost; one next to a shown passage joins it. Hits that do not
 * fit are left out (as single-message passages) and smaller later ones may
 * still fit. Passages stay in the order of their best hit.
 */
export function packPassages(candidates: readonly (RecallPassage & { score: number })[], o: PackOptions): { kept: SheetPassage[]; left: SheetPassage[] } {
  const kept: SheetPassage[] = [];
  const left: SheetPassage[] = [];
  const placed = new Map<number, SheetPassage>();
  let used = 0;
  for (const c of candidates) {
    const shown = placed.get(c.hit.id);
    if (shown) {
      const m = shown.messages.find((x) => x.id === c.hit.id)!;
      m.hit = true;
      continue;
    }
    const touching = [...new Set([c.before, c.after].flatMap((m) => (m && placed.get(m.id) ? [placed.get(m.id)!] : [])))];
    // With its helpful neighbours, else alone, else cut shorter: the first that fits.
    const tries: [number, boolean][] = [
      [HIT_MAX_CHARS, true],
      [HIT_MAX_CHARS, false],
      [MIN_HIT_CHARS, false],
    ];
    let fits: SheetMessage[] | undefined;
    for (const [hitMax, withNeighbours] of tries) {
      const ms = messagesFor(c, o.stems, hitMax, withNeighbours).filter((m) => !placed.has(m.id));
      if (used + passageCost({ messages: ms }) - (touching.length ? PASSAGE_GAP : 0) <= o.maxChars) {
        fits = ms;
        break;
      }
    }
    if (!fits || (!touching.length && kept.length >= o.maxPassages)) {
      left.push({ conversationId: c.conversationId, messages: [{ ...c.hit, hit: true }], score: c.score, aboutRemembering: c.aboutRemembering });
      continue;
    }
    used += passageCost({ messages: fits }) - (touching.length ? PASSAGE_GAP : 0);
    const target = touching[0] ?? { conversationId: c.conversationId, messages: [], score: c.score, aboutRemembering: c.aboutRemembering };
    if (!touching.length) kept.push(target);
    // A hit between two shown passages joins them into one run.
    for (const other of touching.slice(1)) {
      target.messages.push(...other.messages);
      target.score = Math.max(target.score, other.score);
      kept.splice(kept.indexOf(other), 1);
      used -= PASSAGE_GAP;
    }
    target.messages.push(...fits);
    target.messages.sort((a, b) => a.id - b.id);
    for (const m of target.messages) placed.set(m.id, target);
  }
  return { kept, left };
}
