/**
 * Keyword indexes partitioned by user inside one FTS5 table: each row's FTS
 * rowid is `slot × 2^32 + id`, where `slot` is the user's number in
 * `fts_users`. A search passes the user's rowid range with its MATCH, and
 * FTS5 seeks straight to that range in every posting list, so one user's
 * search reads one user's rows, however many others there are. bm25 is
 * unchanged: the table still holds every row, so document counts and
 * lengths (idf, average length) are what a table per store gave before.
 */

/** Row ids per user: message and memory ids stay below 2^32, users below 2^20 (keys stay exact doubles). */
export const USER_SPAN = 4294967296;

/** SQL: the first FTS rowid of a user's range (NULL for a user with no rows yet: nothing matches). */
export function userBase(userExpr: string): string {
  return `((SELECT slot FROM fts_users WHERE user_id = ${userExpr}) * ${USER_SPAN})`;
}

/** SQL: the FTS rowid of row `idExpr` of user `userExpr`. */
export function userKey(userExpr: string, idExpr: string): string {
  return `(${userBase(userExpr)} + ${idExpr})`;
}

/** SQL constraint: the FTS table's rows of user `userExpr`. */
export function inUserRange(fts: string, userExpr: string): string {
  return `${fts}.rowid BETWEEN ${userBase(userExpr)} AND ${userBase(userExpr)} + ${USER_SPAN - 1}`;
}
