import type { VectorStore } from "../ports/vector-index.ts";

/*
 * The few values the `lilo` CLI needs while it builds its commands. They live
 * apart from the use cases so that `lilo --help` loads none of the core
 * (importing them through core/index.ts pulls in createLilo and everything
 * behind it: ≈ 0.25 s of start-up).
 */

/**
 * Who asks: a user id (a chat user may only see and change their own live
 * entries), or `ANY_USER` for the operator's `lilo` CLI, which may change
 * anyone's entry.
 */
export const ANY_USER: unique symbol = Symbol("any user");
export type MemoryOwner = string | typeof ANY_USER;

/** The stores `lilo export` writes, in this order; `messages` only on request. */
export const EXPORT_STORES = ["notes", "important", "thoughts", "diary", "profile", "rules", "topics", "messages"] as const;
export type ExportStore = (typeof EXPORT_STORES)[number];

/** The stores `lilo dedupe` looks at. The diary is never deduplicated (SPEC §11): two nights may well read alike, and each is a day of its own. */
export const DEDUPE_STORES = ["notes", "important", "thoughts"] as const satisfies readonly VectorStore[];
export type DedupeStore = (typeof DEDUPE_STORES)[number];
