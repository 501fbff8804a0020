import { VECTOR_STORES } from "../../foundation/ports/vector-index.ts";

/** Stores an import line may name (apart from the line schema, so the CLI's options need no zod). */
export const IMPORT_STORES = [...VECTOR_STORES, "profile", "rules", "topics", "reminders"] as const;
export type ImportStore = (typeof IMPORT_STORES)[number];
