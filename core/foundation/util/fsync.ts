import { closeSync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Flushes to disk: a file's bytes before it is renamed into place, and the
 * folder's entry after, so a power cut leaves the old file or the new one.
 */
export function fsyncFile(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes the folder that holds `path`: a rename inside it is then durable. */
export function fsyncDir(path: string): void {
  fsyncFile(dirname(path));
}
