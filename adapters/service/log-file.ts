import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createStream, type RotatingFileStream } from "rotating-file-stream";
import { makePrivate, PRIVATE_FILE_MODE } from "../../core/internal.ts";

/** Lilo's log file, `<dataDir>/lilo.log`: readable by the owner only, rotated by size. */
export interface LogFile {
  readonly path: string;
  write(line: string): void;
  /** Writes what is still buffered and closes the file; call before the process exits. */
  close(): Promise<void>;
}

/** How many rotated files (lilo.log.1 … lilo.log.5) are kept beside the current one. */
export const KEPT_LOG_FILES = 5;

/**
 * Opens the log file `npm start` writes (besides stderr for a supervisor's
 * journal; the terminal chat only here, where lines would land in the
 * middle of the conversation). At `maxBytes` the file becomes lilo.log.1,
 * the older ones move up and the oldest beyond KEPT_LOG_FILES is deleted.
 * A file that cannot be written costs the file, never the chat: it is said
 * once on stderr and later lines are dropped from it.
 */
export function openLogFile(dataDir: string, maxBytes: number): LogFile {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "lilo.log");
  // A file from an older run may have been created with other modes.
  makePrivate(path);
  const stream: RotatingFileStream = createStream("lilo.log", {
    path: dataDir,
    size: `${Math.max(1, Math.floor(maxBytes))}B`,
    rotate: KEPT_LOG_FILES,
    mode: PRIVATE_FILE_MODE,
  });
  let failed = false;
  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    process.stderr.write(`the log file ${path} cannot be written (${err.message}); log lines go to stderr only\n`);
  };
  stream.on("error", fail);
  stream.on("warning", (err: Error) => process.stderr.write(`log file rotation: ${err.message}\n`));
  const finished = new Promise<void>((resolve) => {
    stream.once("finish", resolve);
    stream.once("close", resolve);
    stream.once("error", () => resolve());
  });
  return {
    path,
    write: (line) => {
      if (!failed && !stream.writableEnded) stream.write(line);
    },
    close: async () => {
      if (!stream.writableEnded && !failed) stream.end();
      await finished;
    },
  };
}
