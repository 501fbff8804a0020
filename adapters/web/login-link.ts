import type { Lilo } from "../../core/index.ts";
import type { MemoryOwner } from "../../core/internal.ts";
import { webConfig } from "./config.ts";

/** A one-time login link to the pages at `base`, valid LILO_WEB_LINK_MINUTES: for one user, or for the operator (`ANY_USER`). */
export function loginLink(lilo: Lilo, base: string, owner: MemoryOwner): string {
  const { token } = lilo.webAccess.issueLink(owner, webConfig(lilo.config).linkMinutes);
  return `${base.replace(/\/+$/, "")}/login/${token}`;
}

/** Where the bot's pages are reached: LILO_WEB_URL, else http://LILO_WEB_HOST:LILO_WEB_PORT; undefined when the bot serves none. */
export function botPagesUrl(lilo: Lilo): string | undefined {
  const web = webConfig(lilo.config);
  if (!web.port) return undefined;
  return web.publicUrl ?? `http://${web.host.includes(":") ? `[${web.host}]` : web.host}:${web.port}`;
}
