/**
 * How the background extraction cuts imported chats into calls: one call
 * reads one conversation, or a piece of a long one that fits the input
 * limit, never two conversations at once. The dry run's cost estimate cuts
 * the same way, so its call count is the one the extraction makes.
 */

/** One imported message, as far as the cut and the transcript need it. */
export interface ChunkLine {
  /** Messages of one conversation share this. */
  conversation: number;
  /** The other party's name; null for the person's own lines. */
  speaker: string | null;
  text: string;
  createdAt: string;
}

/** One message as the model reads it: `[2025-11-03 18:02] Mara: …`, cut to `maxChars`. */
export function transcriptLine(line: ChunkLine, meName: string, maxChars: number): string {
  const text = line.text.length > maxChars ? `${line.text.slice(0, maxChars)} …` : line.text;
  return `[${line.createdAt.slice(0, 16).replace("T", " ")}] ${line.speaker ?? meName}: ${text}`;
}

/**
 * The lines the next call reads: from the first line on, within its
 * conversation, as many as fit `maxChars` (at least one).
 */
export function firstChunk<T extends ChunkLine>(lines: T[], meName: string, maxChars: number): T[] {
  const out: T[] = [];
  let chars = 0;
  for (const line of lines) {
    if (out.length && line.conversation !== out[0]!.conversation) break;
    const n = transcriptLine(line, meName, maxChars).length + 1;
    if (out.length && chars + n > maxChars) break;
    out.push(line);
    chars += n;
  }
  return out;
}

/** How many calls the lines take, and how many characters of transcript those calls read. */
export function chunkSizes(lines: ChunkLine[], meName: string, maxChars: number): { calls: number; chars: number } {
  let calls = 0;
  let chars = 0;
  for (let at = 0; at < lines.length;) {
    const chunk = firstChunk(lines.slice(at, at + 2_000), meName, maxChars);
    calls++;
    chars += chunk.reduce((n, l) => n + transcriptLine(l, meName, maxChars).length + 1, 0);
    at += chunk.length;
  }
  return { calls, chars };
}
