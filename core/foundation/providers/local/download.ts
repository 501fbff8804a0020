import { createHash, type Hash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ProviderError, describeError } from "../../errors.ts";

/** Progress of one download: bytes on disk (resumed bytes included) of `total` (undefined while unknown). */
export type DownloadProgress = (done: number, total: number | undefined) => void;

interface DownloadRequest {
  url: string;
  /** The finished file; it only ever appears complete and verified (written as `<dest>.part`, then renamed). */
  dest: string;
  /** Hex sha256 the whole file must have. */
  sha256: string;
  onProgress?: DownloadProgress;
  /** How often a broken connection is resumed before giving up (the `.part` stays for the next start). */
  retries?: number;
  signal?: AbortSignal;
}

/**
 * Downloads a large file resumably and verifies it. A `<dest>.part` left by
 * an interrupted run (a crash, a lost connection, a restart) is continued
 * with an HTTP Range request instead of starting over; a server that ignores
 * Range sends the whole file and the part is rewritten. The sha256 covers the
 * whole file, so a resumed download is checked as strictly as a fresh one; on
 * a mismatch the part is deleted (its bytes cannot be trusted) and the
 * download fails. Only a verified file is renamed to `dest`.
 */
export async function downloadVerified(req: DownloadRequest): Promise<void> {
  const part = `${req.dest}.part`;
  await mkdir(dirname(req.dest), { recursive: true });
  const attempts = 1 + (req.retries ?? 3);
  for (let attempt = 1; ; attempt++) {
    try {
      const hash = await fetchInto(part, req);
      const actual = hash.digest("hex");
      if (actual !== req.sha256.toLowerCase()) {
        await rm(part, { force: true });
        throw new ProviderError(
          `The download of ${req.url} does not match its checksum (sha256 ${actual}, expected ${req.sha256}); the partial file was deleted, the next try starts over.`,
          { provider: "local", retryable: false },
        );
      }
      await rename(part, req.dest);
      return;
    } catch (err) {
      if (err instanceof ProviderError || req.signal?.aborted || attempt >= attempts) throw asDownloadError(err, req.url);
      // A broken connection: the loop resumes from what the part holds now.
    }
  }
}

/** One request: continues `part` from its size, returns the hash of the whole part once the body is complete. */
async function fetchInto(part: string, req: DownloadRequest): Promise<Hash> {
  const have = await sizeOf(part);
  const res = await fetch(req.url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, redirect: "follow", signal: req.signal ?? null });
  if (res.status === 416 && have > 0) {
    // Nothing left to send: the part is already whole (the previous run died between the last byte and the rename).
    await res.body?.cancel();
    return hashOf(part);
  }
  if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    throw new ProviderError(`Downloading ${req.url} failed: HTTP ${res.status} ${res.statusText}`.trim(), {
      provider: "local",
      status: res.status,
      retryable: res.status >= 500 || res.status === 429,
    });
  }
  const resumed = res.status === 206 && contentRangeStart(res.headers.get("content-range")) === have;
  if (res.status === 206 && !resumed) {
    await res.body?.cancel();
    throw new ProviderError(`Downloading ${req.url} failed: the server resumed at the wrong byte (${res.headers.get("content-range")})`, {
      provider: "local",
      retryable: false,
    });
  }
  const hash = resumed ? await hashOf(part) : createHash("sha256");
  const start = resumed ? have : 0;
  const length = Number(res.headers.get("content-length") ?? NaN);
  const total = Number.isFinite(length) ? start + length : undefined;
  let done = start;
  req.onProgress?.(done, total);
  if (!res.body) throw new Error("the server sent no body");
  const body = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
  body.on("data", (chunk: Buffer) => {
    hash.update(chunk);
    done += chunk.length;
    req.onProgress?.(done, total);
  });
  await pipeline(body, createWriteStream(part, { flags: resumed ? "a" : "w" }));
  if (total !== undefined && done !== total) throw new Error(`the connection closed after ${done} of ${total} bytes`);
  return hash;
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
}

/** The sha256 state after the bytes already in `path`, ready to take the rest. */
async function hashOf(path: string): Promise<Hash> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash;
}

/** "bytes 100-999/1000" → 100. */
function contentRangeStart(header: string | null): number | undefined {
  const m = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(header?.trim() ?? "");
  return m ? Number(m[1]) : undefined;
}

function asDownloadError(err: unknown, url: string): ProviderError {
  if (err instanceof ProviderError) return err;
  return new ProviderError(`Downloading ${url} was interrupted: ${describeError(err)}. The part downloaded so far is kept; the next try continues it.`, {
    provider: "local",
    retryable: true,
    cause: err,
  });
}
