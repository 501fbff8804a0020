import { expect } from "vitest";
import type { Lilo } from "../../../core/index.ts";
import type { MemoryOwner } from "../../../core/internal.ts";
import { csrfToken } from "../../../adapters/web/auth.tsx";
import type { createWebApp } from "../../../adapters/web/app.tsx";

/** A logged-in browser, as the HTTP tests play it: the session cookie and its CSRF token. */
export interface WebSession {
  cookie: string;
  csrf: string;
}

/** Logs in to `app` with a fresh one-time link for `owner` (a user, or ANY_USER for the operator). */
export async function webLogin(app: ReturnType<typeof createWebApp>, lilo: Lilo, owner: MemoryOwner): Promise<WebSession> {
  const { token } = lilo.webAccess.issueLink(owner, 10);
  const res = await app.request("/login", { method: "POST", body: new URLSearchParams({ token }) });
  expect(res.status).toBe(303);
  const set = res.headers.get("set-cookie")!;
  expect(set).toMatch(/HttpOnly/);
  expect(set).toMatch(/SameSite=Strict/);
  const session = /lilo_session=([^;]+)/.exec(set)![1]!;
  return { cookie: `lilo_session=${session}`, csrf: csrfToken(session) };
}
