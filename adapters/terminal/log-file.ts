import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { makePrivate } from "../../core/internal.ts";

/** The terminal chat's log: appended to `<dataDir>/lilo.log`, readable by the owner only. */
export interface LogFile {
  readonly path: string;
  write(line: string): void;
  close(): void;
}

/**
 * Opens the log file the terminal chat writes to instead of stderr, where
 * log lines would land in the middle of the conversation.
 */
export function openLogFile(dataDir: string): LogFile {
  const path = join(dataDir, "lilo.log");
  const fd = openSync(path, "a", 0o600);
  makePrivate(path); // a file from an older run may have been created with other modes
  return { path, write: (line) => void writeSync(fd, line), close: () => closeSync(fd) };
}
