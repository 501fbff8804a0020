/**
 * Packs rendered conversations into parts of at most `maxChars` characters
 * (docs/spec.md §10: 150,000 ≈ 43,000 tokens). Whole conversations stay together
 * when they fit; a longer one is split between messages, and the next part
 * repeats its header marked as a continuation.
 */
import type { RenderedConversation } from "./transcript.ts";

/** The parts in time order; each is a self-contained piece of transcript. */
export function chunkTranscript(conversations: RenderedConversation[], maxChars: number): string[] {
  const chunks: string[] = [];
  let current = "";
  const flush = () => {
    if (current) chunks.push(current);
    current = "";
  };
  /** Appends a block, separated by `sep` unless the part is empty. */
  const fits = (block: string, sep: string) => (current ? current.length + sep.length : 0) + block.length <= maxChars;
  const add = (block: string, sep: string) => {
    current = current ? `${current}${sep}${block}` : block;
  };
  for (const c of conversations) {
    const whole = [c.header, ...c.lines].join("\n");
    if (fits(whole, "\n\n")) {
      add(whole, "\n\n");
      continue;
    }
    if (whole.length <= maxChars) {
      flush();
      add(whole, "\n\n");
      continue;
    }
    // Too long for any part: split between messages.
    if (!fits(c.header, "\n\n")) flush();
    add(c.header, "\n\n");
    for (const line of c.lines) {
      if (!fits(line, "\n")) {
        flush();
        add(c.continuedHeader, "");
      }
      add(line, "\n"); // a single line longer than a part still goes in whole (only when the cut is set above the part size)
    }
  }
  flush();
  return chunks;
}

/** Rough token estimate used by the preview: characters / 3.5. */
export function approxTokens(chars: number): number {
  return Math.round(chars / 3.5);
}
