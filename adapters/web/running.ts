import type { Lilo } from "../../core/index.ts";

/** The path where a server of the pages answers with its instance id: how another process tells it is still there. */
export const INSTANCE_PATH = "/lilo-instance";

/** How long a probe waits: a server on this machine answers at once, a dead address is refused at once. */
const PROBE_MS = 2_000;

/**
 * The base address of a server of the pages that runs on this database now, or undefined. Each recorded
 * server is asked for its instance id; a record whose server does not answer so (killed, or another program
 * took its port) is removed.
 */
export async function runningPagesUrl(lilo: Lilo): Promise<{ url: string; local: string } | undefined> {
  for (const pages of lilo.webAccess.pages.list()) {
    if (await answers(pages.local, pages.instance)) return { url: pages.url, local: pages.local };
    lilo.webAccess.pages.withdraw(pages.instance);
  }
  return undefined;
}

async function answers(local: string, instance: string): Promise<boolean> {
  try {
    const res = await fetch(`${local}${INSTANCE_PATH}`, { signal: AbortSignal.timeout(PROBE_MS), redirect: "manual" });
    return res.ok && (await res.text()) === instance;
  } catch {
    return false;
  }
}
