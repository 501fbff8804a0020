import { InvalidArgumentError, type Command } from "commander";
import { ANY_USER, ConfigError, type Lilo } from "../../core/index.ts";
import type { MemoryOwner } from "../../core/internal.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";
import { readPort } from "../../adapters/web/port.ts";

/** The port `lilo web` uses when neither --port nor LILO_WEB_PORT names one. */
export const DEFAULT_WEB_PORT = 8787;

/** Waits for Ctrl-C or a stop signal. */
const untilSignal = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });

/** The pages' modules, loaded only when `lilo web` runs: `lilo --help` does not pay for Hono. */
const pagesModules = async () => {
  const [server, config, link, running] = await Promise.all([
    import("../../adapters/web/server.ts"),
    import("../../adapters/web/config.ts"),
    import("../../adapters/web/login-link.ts"),
    import("../../adapters/web/running.ts"),
  ]);
  return { ...server, ...config, ...link, ...running };
};
type PagesModules = Awaited<ReturnType<typeof pagesModules>>;

/** --port: decimal digits only, 1–65535, or 0 for a free port; anything else stops before Lilo opens. */
function portOption(value: string): number {
  const r = readPort(value, true);
  if ("problem" in r) throw new InvalidArgumentError(r.problem);
  return r.port;
}

/**
 * `lilo web`: serves Lilo's pages and prints a one-time login link as its first line (the operator's,
 * who sees every user, or with --user one user's). While pages already run on this database (the bot's,
 * or another `lilo web`), `--link` prints a link for them; without a running server it names the bot's
 * address (LILO_WEB_PORT). `until` ends the server (tests); by default Ctrl-C does.
 */
export function registerWeb(program: Command, open: LiloOpener, io: CliIO, until: () => Promise<void> = untilSignal): void {
  program
    .command("web")
    .description("serve Lilo's pages (local web dashboard) and print a one-time login link first")
    .option("--host <address>", "address to listen on (default LILO_WEB_HOST, 127.0.0.1); an address other than loopback only when given here")
    .option("--port <n>", `port, 1-65535 (default LILO_WEB_PORT, else ${DEFAULT_WEB_PORT}; 0 picks a free one)`, portOption)
    .option("-u, --user <id>", "a link for this Lilo user (sees only their memories) instead of the operator's (sees everyone)")
    .option("--link", "only print a login link for the pages that run now (the bot's, or another `lilo web`)")
    .action((o: { host?: string; port?: number; user?: string; link?: boolean }, cmd: Command) =>
      withLilo(open, io, async (lilo) => {
        const m = await pagesModules();
        const owner = o.user ?? ANY_USER;
        if (o.link) return printLink(lilo, m, io, owner);
        const config = m.webConfig(lilo.config);
        const port = o.port ?? (config.port || DEFAULT_WEB_PORT);
        // Only --host on the command line counts as choosing an address other than loopback on purpose
        // (a LILO_WEB_HOST left in .env for the bot's pages does not open `lilo web` to the network).
        const hostGiven = cmd.getOptionValueSource("host") === "cli";
        const server = await m
          .startWebServer(lilo, lilo.logger, { host: o.host ?? config.host, port, hostGiven, publicUrl: config.publicUrl })
          .catch(async (err: unknown) => {
            if ((err as { code?: string }).code !== "EADDRINUSE") throw err;
            return (await m.runningPagesUrl(lilo)) ?? Promise.reject(portTaken(port, err));
          });
        if (!("close" in server)) {
          // Lilo's own pages hold the port: a second server cannot start, but a link for the running one does the job.
          io.out(m.loginLink(lilo, server.url, owner));
          io.out(`Lilo's pages already run on ${server.url}: the link above logs in there once within ${config.linkMinutes} minutes.`);
          return 0;
        }
        io.out(server.loginLink(owner));
        io.out(`Lilo's pages: ${server.url} — the link above logs in once within ${config.linkMinutes} minutes; Ctrl-C stops.`);
        await until();
        await server.close();
        return 0;
      }),
    );
}

/** `lilo web --link`: a link for the pages that answer now, else for the bot's address, else why there is none. */
async function printLink(lilo: Lilo, m: PagesModules, io: CliIO, owner: MemoryOwner): Promise<number> {
  const running = await m.runningPagesUrl(lilo);
  if (running) {
    io.out(m.loginLink(lilo, running.url, owner));
    return 0;
  }
  const botUrl = m.botPagesUrl(lilo);
  if (!botUrl) throw new ConfigError("no pages of Lilo are running and the bot serves none (LILO_WEB_PORT is 0): start them with `lilo web`");
  io.out(m.loginLink(lilo, botUrl, owner));
  io.err(`No pages answer yet: the link works once the bot serves them on ${botUrl} (LILO_WEB_PORT).`);
  return 0;
}

const portTaken = (port: number, cause: unknown) =>
  new ConfigError(`port ${port} is taken by another program (not Lilo's pages): choose another with --port or LILO_WEB_PORT`, { cause });
