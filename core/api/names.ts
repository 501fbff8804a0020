/*
 * The few values the `lilo` CLI needs while it builds its commands (option
 * choices), before any command runs. Callers import them through
 * core/index.ts; they live apart from the use cases so that the bundled CLI
 * (esbuild, `"sideEffects": false`) keeps `lilo --help` free of createLilo
 * and everything behind it.
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
