/**
 * System errors (ENOENT, EACCES, …) as a sentence a user can act on, instead
 * of Node's "ENOENT: no such file or directory, open '/x'".
 */
const SENTENCES: Record<string, (path: string) => string> = {
  ENOENT: (p) => `${p} does not exist`,
  EACCES: (p) => `${p} may not be read or written by this user (permission denied)`,
  EPERM: (p) => `${p} may not be changed by this user (operation not permitted)`,
  EISDIR: (p) => `${p} is a folder, not a file`,
  ENOTDIR: (p) => `a part of ${p} is a file, not a folder`,
  EEXIST: (p) => `${p} exists already`,
  ENOSPC: (p) => `the disk holding ${p} is full`,
  EROFS: (p) => `${p} is on a read-only file system`,
  EMFILE: () => "too many files are open at once",
  ECONNREFUSED: (p) => `nothing answers at ${p} (connection refused)`,
  ENOTFOUND: (p) => `the host ${p} is not known (DNS)`,
  ETIMEDOUT: (p) => `${p} did not answer in time`,
};

interface SystemError {
  code?: unknown;
  path?: unknown;
  address?: unknown;
  hostname?: unknown;
  port?: unknown;
  message?: unknown;
}

/** The error as one sentence: a system error by its code and path, anything else by its message. */
export function sentence(err: unknown): string {
  const e = (typeof err === "object" && err !== null ? err : {}) as SystemError;
  const make = typeof e.code === "string" ? SENTENCES[e.code] : undefined;
  if (make) {
    const where =
      typeof e.path === "string"
        ? e.path
        : typeof e.hostname === "string"
          ? e.hostname
          : typeof e.address === "string"
            ? `${e.address}${typeof e.port === "number" ? `:${e.port}` : ""}`
            : "the file";
    return make(where);
  }
  return err instanceof Error ? err.message : String(err);
}
