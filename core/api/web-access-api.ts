import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "../foundation/ports/clock.ts";
import type { WebTokenRow, WebTokensStore } from "../foundation/store/web-tokens.ts";
import { ANY_USER, type MemoryOwner } from "./names.ts";
import type { RunningPagesApi } from "./running-pages-api.ts";

/** A fresh token (shown once: in a link or a cookie) and until when it is valid. */
interface IssuedToken {
  token: string;
  expiresAt: string;
}

/** Why a login link was refused. */
export type LinkRefusal = "unknown" | "expired" | "used";

/** What opening a login link gave: a session for the link's owner, or the reason it was refused. */
export type Redeemed = { ok: true; owner: MemoryOwner; session: IssuedToken } | { ok: false; reason: LinkRefusal };

/**
 * Who may open Lilo's pages: one-time login links (printed by `lilo web`, sent by `/web`) that open a
 * browser session. Tokens are random; only their SHA-256 is stored, so a copy of the database opens nothing.
 * Links and sessions live in the database, so a link the bot sends opens a `lilo web` in another process.
 */
export interface WebAccessApi {
  /** A login link's token for one user (or `ANY_USER`: the operator, who sees everyone), valid `minutes`. */
  issueLink(owner: MemoryOwner, minutes: number): IssuedToken;
  /** Whether a link would log in now ("valid") or why not, without using it (the page before the login button). */
  linkState(linkToken: string): "valid" | LinkRefusal;
  /** Uses a link once and opens a session valid `sessionHours`; a second use, an expired or unknown link is refused. */
  redeem(linkToken: string, sessionHours: number): Redeemed;
  /** The owner of a live session; undefined for an unknown or expired one. */
  session(sessionToken: string): MemoryOwner | undefined;
  /** Ends a session (log out). */
  endSession(sessionToken: string): void;
  /** The servers of the pages running on this database, so another process can hand out a link to them. */
  pages: RunningPagesApi;
}

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
// Expired tokens are kept a day, so a late click on a link still gets "expired", not "unknown".
const KEEP_MS = 24 * 3600_000;

/** Builds the login-link and session use cases over the tokens store; times come from the clock. */
export function webAccessApi(tokens: WebTokensStore, pages: RunningPagesApi, clock: Clock): WebAccessApi {
  const issue = (kind: "link" | "session", owner: MemoryOwner, ms: number): IssuedToken => {
    const now = clock.now();
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(now.getTime() + ms).toISOString();
    tokens.add(hash(token), kind, owner === ANY_USER ? null : owner, expiresAt, now.toISOString());
    tokens.purge(new Date(now.getTime() - KEEP_MS).toISOString());
    return { token, expiresAt };
  };
  const check = (linkToken: string): { state: LinkRefusal; row?: undefined } | { state: "valid"; row: WebTokenRow } => {
    const row = tokens.get(hash(linkToken));
    if (!row || row.kind !== "link") return { state: "unknown" };
    if (row.usedAt) return { state: "used" };
    if (row.expiresAt <= clock.now().toISOString()) return { state: "expired" };
    return { state: "valid", row };
  };
  return {
    issueLink: (owner, minutes) => issue("link", owner, minutes * 60_000),
    linkState: (linkToken) => check(linkToken).state,
    redeem(linkToken, sessionHours) {
      const { state, row } = check(linkToken);
      if (state !== "valid") return { ok: false, reason: state };
      // The check and the use are two statements: `use` refuses a link another request used in between.
      if (!tokens.use(hash(linkToken), clock.now().toISOString())) return { ok: false, reason: "used" };
      const owner = row.userId ?? ANY_USER;
      return { ok: true, owner, session: issue("session", owner, sessionHours * 3600_000) };
    },
    session(sessionToken) {
      const row = tokens.get(hash(sessionToken));
      if (!row || row.kind !== "session" || row.expiresAt <= clock.now().toISOString()) return undefined;
      return row.userId ?? ANY_USER;
    },
    endSession: (sessionToken) => tokens.delete(hash(sessionToken)),
    pages,
  };
}
