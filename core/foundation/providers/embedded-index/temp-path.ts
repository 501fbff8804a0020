import { randomUUID } from "node:crypto";

/**
 * A temporary file name beside `path` for this writer: the process id (so a
 * start can clear what a dead process left, snapshot.ts) and a random part
 * (two indexes in one process).
 */
export function tempPath(path: string): string {
  return `${path}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`;
}
