import type { EmbeddingStatus } from "./embedding-status.ts";

// Apart from the record (and zod), so `lilo status` imports the wording alone.

/** The state as one line: the log's warning and `lilo status`. */
export function recallLine(s: EmbeddingStatus): string {
  switch (s.mode) {
    case "words-only":
      return `recall by words only: embedding model ${s.model} not available — ${s.reason}; copy it to ${s.folder}`;
    case "catching-up":
      return `recall by words and meaning: embedding model ${s.model} loaded, embedding what was stored without it in the background`;
    case "full":
      return `recall by words and meaning: embedding model ${s.model}`;
  }
}
