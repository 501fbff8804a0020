import type Database from "better-sqlite3-multiple-ciphers";

/**
 * An open SQLite connection. On its own so the transaction helpers (tx.ts)
 * can name it without importing db.ts, which imports them: no circle.
 */
export type Db = Database.Database;
