import { InvalidArgumentError } from "commander";
import { LiloError, describeError, type Lilo } from "../../core/index.ts";
import { VECTOR_STORES, type VectorStore } from "../../core/internal.ts";
import type { CliIO, LiloOpener, OpenOptions } from "../context.ts";

/** The `--user` option every per-user command has. */
export const userOption = ["-u, --user <id>", "Lilo user id (default: LILO_TERMINAL_USER)"] as const;

/**
 * Opens Lilo, runs a command, always closes it, and turns errors into a
 * clear message and a non-zero exit code instead of a stack trace.
 */
export async function withLilo(open: LiloOpener, io: CliIO, fn: (lilo: Lilo) => Promise<number>, opts: OpenOptions = {}): Promise<void> {
  let lilo: Lilo | undefined;
  try {
    lilo = await open(opts);
    process.exitCode = await fn(lilo);
  } catch (err) {
    io.err(`error: ${describeError(err)}`);
    if (!(err instanceof LiloError) && err instanceof Error && err.stack && process.env.LILO_DEBUG) io.err(err.stack);
    process.exitCode = 1;
  } finally {
    await lilo?.close();
  }
}

/** A memory store with vectors (search, show, edit, delete); the profile, which has none, is named to its own command. */
export function parseStore(value: string): VectorStore {
  if ((VECTOR_STORES as readonly string[]).includes(value)) return value as VectorStore;
  if (value === "profile")
    throw new InvalidArgumentError(`the profile has its own command here: lilo profile list, edit, delete (--store takes ${VECTOR_STORES.join(", ")})`);
  throw new InvalidArgumentError(`unknown store "${value}" (use ${VECTOR_STORES.join(", ")})`);
}

/** The stores `lilo memory list` shows: every store /why and `lilo why` name a memory of. */
export const LISTED_STORES = [...VECTOR_STORES, "profile"] as const;

/** A store `lilo memory list` can show, else an error listing them. */
export function parseListedStore(value: string): (typeof LISTED_STORES)[number] {
  if ((LISTED_STORES as readonly string[]).includes(value)) return value as (typeof LISTED_STORES)[number];
  throw new InvalidArgumentError(`unknown store "${value}" (use ${LISTED_STORES.join(", ")})`);
}

export function parseId(value: string, what = "id"): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${what} must be a whole number, not "${value}"`);
  return n;
}

/** Prints what a change did, or that there is no `what` with this id; returns the exit code. */
export function reportChange(io: CliIO, ok: boolean, done: string, what: string, id: string): number {
  if (ok) {
    io.out(done);
    return 0;
  }
  io.err(`error: no ${what} with id ${id}`);
  return 1;
}
