import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeServer, type FakeServer, type RecordedRequest } from "../../../fakes/http-server.ts";
import { downloadVerified } from "../../../../core/foundation/providers/local/download.ts";
import { ProviderError } from "../../../../core/foundation/errors.ts";

const FILE = randomBytes(300_000);
const SHA = createHash("sha256").update(FILE).digest("hex");

/** How the fake file server behaves for the next requests. */
let mode: { cutFirstAt?: number; ignoreRange?: boolean; body?: Buffer } = {};
let served = 0;

/** A file server that honours Range (206 + Content-Range), like Hugging Face's CDN. */
function serve(req: RecordedRequest, res: ServerResponse): void {
  const body = mode.body ?? FILE;
  const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ""));
  const start = range && !mode.ignoreRange ? Number(range[1]) : 0;
  if (start >= body.length && range) {
    res.writeHead(416, { "content-range": `bytes */${body.length}` });
    res.end();
    return;
  }
  const headers = { "content-type": "application/octet-stream", "content-length": String(body.length - start) };
  if (start > 0) res.writeHead(206, { ...headers, "content-range": `bytes ${start}-${body.length - 1}/${body.length}` });
  else res.writeHead(200, headers);
  served++;
  if (served === 1 && mode.cutFirstAt !== undefined) {
    // Half the file, then the connection dies: what a dropped Wi-Fi or a restart does.
    res.write(body.subarray(start, mode.cutFirstAt), () => res.destroy());
    return;
  }
  res.end(body.subarray(start));
}

let server: FakeServer;
let dir: string;

beforeAll(async () => {
  server = await startFakeServer(serve);
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  mode = {};
  served = 0;
  server.requests.length = 0;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function target(): string {
  dir = mkdtempSync(join(tmpdir(), "lilo-download-"));
  mkdirSync(join(dir, "models"));
  return join(dir, "models", "model.gguf");
}

describe("downloadVerified", () => {
  it("downloads a verified file, reporting progress up to the full size", async () => {
    const dest = target();
    const seen: [number, number | undefined][] = [];
    await downloadVerified({ url: `${server.url}/model.gguf`, dest, sha256: SHA, onProgress: (d, t) => seen.push([d, t]) });
    expect(readFileSync(dest).equals(FILE)).toBe(true);
    expect(existsSync(`${dest}.part`)).toBe(false);
    expect(seen.at(-1)).toEqual([FILE.length, FILE.length]);
  });

  it("resumes an interrupted download with a Range request", async () => {
    const dest = target();
    mode = { cutFirstAt: 120_000 };
    const progress: number[] = [];
    await downloadVerified({ url: `${server.url}/model.gguf`, dest, sha256: SHA, onProgress: (d) => progress.push(d) });
    expect(readFileSync(dest).equals(FILE)).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.headers.range).toBeUndefined();
    // The retry asks only for the bytes after what reached the disk (none, if the cut came before the first write finished).
    const range = server.requests[1]!.headers.range;
    const resumedAt = range === undefined ? 0 : Number(/^bytes=(\d+)-$/.exec(String(range))![1]);
    expect(resumedAt).toBeLessThanOrEqual(120_000);
    expect(progress.at(-1)).toBe(FILE.length);
  });

  it("continues a part left by an earlier run (a restart)", async () => {
    const dest = target();
    writeFileSync(`${dest}.part`, FILE.subarray(0, 50_000), { flag: "w" });
    await downloadVerified({ url: `${server.url}/model.gguf`, dest, sha256: SHA });
    expect(server.requests[0]!.headers.range).toBe("bytes=50000-");
    expect(readFileSync(dest).equals(FILE)).toBe(true);
  });

  it("only verifies a part that is already complete", async () => {
    target(); // the models folder
    const again = join(dir, "models", "again.gguf");
    writeFileSync(`${again}.part`, FILE);
    await downloadVerified({ url: `${server.url}/model.gguf`, dest: again, sha256: SHA });
    expect(statSync(again).size).toBe(FILE.length);
  });

  it("starts over when the server ignores Range", async () => {
    const dest = target();
    writeFileSync(`${dest}.part`, Buffer.from("garbage that must not stay in front"));
    mode = { ignoreRange: true };
    await downloadVerified({ url: `${server.url}/model.gguf`, dest, sha256: SHA });
    expect(readFileSync(dest).equals(FILE)).toBe(true);
  });

  it("refuses a file whose checksum does not match: no model file, the part deleted, a clear error", async () => {
    const dest = target();
    mode = { body: Buffer.concat([FILE.subarray(0, 1000), Buffer.from("tampered"), FILE.subarray(1008)]) };
    const err = await downloadVerified({ url: `${server.url}/model.gguf`, dest, sha256: SHA }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toMatch(/does not match its checksum/);
    expect((err as ProviderError).retryable).toBe(false);
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it("a refused download fails as a ProviderError, leaving no file", async () => {
    const dest = target();
    const err = await downloadVerified({ url: `${server.url.replace(/:\d+$/, ":1")}/x`, dest, sha256: SHA, retries: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/interrupted/);
    expect(existsSync(dest)).toBe(false);
  });
});
