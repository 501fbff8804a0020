import { providerFailure, type FailureInput, type ProviderFailure } from "./retry.ts";

type ErrorClass<E extends Error = Error> = abstract new (...args: never[]) => E;

/** The error classes both vendor SDKs (same generator, same hierarchy) export. */
export interface SdkErrorClasses {
  abort: ErrorClass;
  timeout: ErrorClass;
  connection: ErrorClass;
  api: ErrorClass<Error & { status?: number | undefined; headers?: Headers | undefined }>;
}

/**
 * Maps an error thrown by the Anthropic or OpenAI SDK to our ProviderError.
 * The two SDKs share their error hierarchy, so one mapping serves both;
 * `apiDetail` lets each say what its API error body means.
 */
export function sdkFailure(
  err: unknown,
  base: Omit<FailureInput, "kind" | "cause" | "detail" | "status" | "headers">,
  classes: SdkErrorClasses,
  apiDetail: (err: Error) => string = (e) => e.message,
): ProviderFailure {
  const input = { ...base, cause: err };
  // Order matters: timeout errors are connection errors in both SDKs.
  if (err instanceof classes.abort) return providerFailure({ ...input, kind: "aborted" });
  if (err instanceof classes.timeout) return providerFailure({ ...input, kind: "timeout" });
  if (err instanceof classes.connection) return providerFailure({ ...input, kind: "connection", detail: err.message });
  if (err instanceof classes.api && typeof err.status === "number") {
    return providerFailure({ ...input, kind: "http", status: err.status, ...(err.headers ? { headers: err.headers } : {}), detail: apiDetail(err) });
  }
  return providerFailure({ ...input, kind: "other", detail: err instanceof Error ? err.message : String(err) });
}
