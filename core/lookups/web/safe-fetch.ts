/**
 * GET for URLs a model chose (fetch_url) or feeds: only http(s), the host
 * resolved and checked first (address-guard.ts) and the connection pinned to
 * the checked address, every redirect checked again (at most 5), a size cap
 * (the body is cut off, not buffered whole) and a time cap for the whole fetch.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { LookupError } from "../../foundation/errors.ts";
import { resolvePublic, type CheckedAddress } from "./address-guard.ts";

export interface SafeFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Test switch: 127.0.0.1 and ::1 are reachable (the fake servers). */
  allowLoopback: boolean;
  /** Feeds the user configured may live on the local network; model-chosen URLs never. */
  allowPrivate?: boolean;
  maxRedirects?: number;
  accept?: string;
}

/** What a fetch brought back (the body possibly cut at `maxBytes`). */
interface FetchedBody {
  /** The final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

const USER_AGENT = "Lilo/0.1 (personal assistant; reads a page on request)";

/** Fetches `raw` under the rules above; throws LookupError("refused" | "failed"). */
export async function safeFetch(raw: string, o: SafeFetchOptions): Promise<FetchedBody> {
  const deadline = AbortSignal.timeout(o.timeoutMs);
  let url = parseHttpUrl(raw);
  const max = o.maxRedirects ?? 5;
  for (let hop = 0; ; hop++) {
    const pinned = o.allowPrivate ? undefined : await resolvePublic(url.hostname, o.allowLoopback);
    const res = await getOnce(url, pinned, o, deadline);
    if (res.redirect) {
      if (hop >= max) throw new LookupError("refused", `more than ${max} redirects`);
      url = parseHttpUrl(new URL(res.redirect, url).toString());
      continue;
    }
    return { ...res.fetched!, url: url.toString() };
  }
}

/** An http(s) URL without credentials, or a refusal saying why not. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch (err) {
    throw new LookupError("refused", `"${raw}" is not a URL`, { cause: err });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new LookupError("refused", `only http and https URLs can be read, not ${url.protocol}`);
  if (url.username || url.password) throw new LookupError("refused", "URLs with credentials are not read");
  return url;
}

type Once = { redirect?: string; fetched?: Omit<FetchedBody, "url"> };

function getOnce(url: URL, pinned: CheckedAddress | undefined, o: SafeFetchOptions, signal: AbortSignal): Promise<Once> {
  // The connection goes to the address that was checked, whatever DNS says a moment later.
  const lookup: LookupFunction | undefined = pinned
    ? (_host, options, cb) => {
        if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
        else cb(null, pinned.address, pinned.family);
      }
    : undefined;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<Once>((resolve, reject) => {
    const fail = (err: unknown) =>
      reject(
        err instanceof LookupError
          ? err
          : new LookupError("failed", signal.aborted ? `no complete answer within ${o.timeoutMs} ms` : `cannot read ${url.origin}: ${(err as Error).message}`, {
              cause: err,
            }),
      );
    const req = client.get(
      url,
      {
        signal,
        headers: { "user-agent": USER_AGENT, accept: o.accept ?? "text/html,text/plain,application/json;q=0.9,*/*;q=0.5" },
        ...(lookup ? { lookup } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ redirect: res.headers.location });
        }
        if (status >= 400) {
          res.resume();
          return reject(new LookupError("failed", `HTTP ${status} from ${url.origin}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on("data", (c: Buffer) => {
          if (truncated) return;
          const room = o.maxBytes - size;
          if (c.length >= room) {
            chunks.push(c.subarray(0, room));
            size = o.maxBytes;
            truncated = true;
            res.destroy(); // enough: the rest is never downloaded
            resolve({ fetched: { status, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks), truncated } });
            return;
          }
          chunks.push(c);
          size += c.length;
        });
        let ended = false;
        res.on("end", () => {
          ended = true;
          resolve({ fetched: { status, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks), truncated } });
        });
        res.on("error", (err) => (truncated ? undefined : fail(err)));
        // Aborted mid-body (the time cap): the body never ends, and the caller must still hear about it.
        res.on("close", () => (ended || truncated ? undefined : fail(signal.reason ?? new Error("connection closed before the end of the body"))));
      },
    );
    req.on("error", fail);
  });
}
