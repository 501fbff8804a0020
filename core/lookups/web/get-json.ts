import type { z } from "zod";
import { LookupError } from "../../foundation/errors.ts";
import { redactSecrets } from "../../foundation/util/redact.ts";

/**
 * GET a JSON API the user configured (search provider) with a timeout, and
 * validate the answer. Failures become LookupError("failed") naming the
 * provider and status; keys in the URL or message are masked.
 */
export async function getJson<T extends z.ZodType>(
  url: URL,
  o: { provider: string; timeoutMs: number; schema: T; headers?: Record<string, string>; secrets?: string[]; signal?: AbortSignal },
): Promise<z.infer<T>> {
  const signal = o.signal ? AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs)]) : AbortSignal.timeout(o.timeoutMs);
  const mask = (s: string) => redactSecrets(s, o.secrets ?? []);
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: "application/json", ...o.headers }, signal });
  } catch (err) {
    throw new LookupError("failed", mask(`${o.provider}: no answer from ${url.origin} (${err instanceof Error ? err.message : String(err)})`), { cause: err });
  }
  if (!res.ok) {
    const body = (await res.text().catch(() => "")).slice(0, 200);
    throw new LookupError("failed", mask(`${o.provider}: HTTP ${res.status}${body ? ` — ${body}` : ""}`));
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch (err) {
    throw new LookupError("failed", `${o.provider}: the answer is not JSON`, { cause: err });
  }
  const parsed = o.schema.safeParse(json);
  if (!parsed.success) throw new LookupError("failed", `${o.provider}: unexpected answer shape`, { cause: parsed.error });
  return parsed.data;
}
