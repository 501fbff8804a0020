import type { Context } from "hono";
import type { Lilo } from "../../core/index.ts";
import type { MemoryOwner } from "../../core/internal.ts";
import type { Texts } from "./texts.ts";
import type { WebSources } from "./sources.ts";

/** Who is looking at the pages, and whose memories they see. */
export interface Viewer {
  /** What the memory use cases are asked with: the user's id, or ANY_USER for the operator. */
  owner: MemoryOwner;
  operator: boolean;
  /** Whose memories the pages show: the user's own, or the one the operator chose (`?u=`). */
  userId: string;
  /** The users the operator can choose from (empty for a user). */
  users: string[];
  /** The name Lilo calls a user by (LILO_USER_NAMES), shown instead of the platform's id; undefined when she knows none. */
  nameOf(userId: string): string | undefined;
  /**
   * May change live settings: they apply to everyone, so the operator may, and a user only while Lilo
   * has no other user (a household's member cannot switch off the diary of the others).
   */
  settings: boolean;
  /** Sent back with every change (form field `_csrf` or header `X-CSRF-Token`). */
  csrf: string;
  t: Texts;
  timeZone: string;
}

/** Hono's typed variables of a request to the pages. */
export type WebEnv = { Variables: { viewer: Viewer; session: string } };

/** A request to the pages with its viewer. */
export type WebContext = Context<WebEnv, string>;

/** What the routes share. */
export interface WebDeps {
  lilo: Lilo;
  sources: WebSources;
  t: Texts;
  sessionHours: number;
  /** The address the browser uses when the pages are behind a reverse proxy (LILO_WEB_URL). */
  publicUrl: string | undefined;
}

/** A page's address for this viewer: the operator's chosen user travels along. */
export function href(v: Viewer, path: string, params: Record<string, string | number | undefined> = {}): string {
  const q = new URLSearchParams();
  if (v.operator) q.set("u", v.userId);
  for (const [k, val] of Object.entries(params)) if (val !== undefined && val !== "") q.set(k, String(val));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** May the viewer change something of `userId`? The operator may change anyone's, a user only their own. */
export const mayChange = (v: Viewer, userId: string): boolean => v.operator || v.userId === userId;

/** An ISO time as "YYYY-MM-DD HH:MM" in Lilo's time zone (stored in UTC, shown local). */
export function localTime(iso: string, timeZone: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return iso;
  return new Intl.DateTimeFormat("sv-SE", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }).format(
    new Date(iso),
  );
}
