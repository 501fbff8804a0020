
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

export { EXPORT_STORES, type ExportStore } from "../foundation/store/export-lines.ts";
export { DEDUPE_STORES, type DedupeStore } from "../memory/duplicates.ts";
