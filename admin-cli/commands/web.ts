import type { Command } from "commander";
import { ANY_USER, ConfigError } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { parseId, withLilo } from "./shared.ts";

/** The port `lilo web` uses when neither --port nor LILO_WEB_PORT names one. */
export const DEFAULT_WEB_PORT = 8787;

/** Waits for Ctrl-C or a stop signal. */
const untilSignal = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });

/**
 * `lilo web`: serves Lilo's pages and prints a one-time login link as its first line (the operator's,
 * who sees every user, or with --user one user's). `--link` only prints a link for the pages the bot
 * serves (LILO_WEB_PORT). `until` ends the server (tests); by default Ctrl-C does.
 */
export function registerWeb(program: Command, open: LiloOpener, io: CliIO, until: () => Promise<void> = untilSignal): void {
  program
    .command("web")
    .description("serve Lilo's pages (local web dashboard) and print a one-time login link first")
    .option("--host <address>", "address to listen on (default LILO_WEB_HOST, 127.0.0.1); an address other than loopback only when given here")
    .option("--port <n>", `port (default LILO_WEB_PORT, else ${DEFAULT_WEB_PORT}; 0 picks a free one)`)
    .option("-u, --user <id>", "a link for this Lilo user (sees only their memories) instead of the operator's (sees everyone)")
    .option("--link", "only print a login link for the pages the running bot serves (LILO_WEB_PORT)")
    .action((o: { host?: string; port?: string; user?: string; link?: boolean }, cmd: Command) =>
      withLilo(open, io, async (lilo) => {
        const [{ startWebServer }, { webConfig }, { botPagesUrl, loginLink }] = await Promise.all([
          import("../../adapters/web/server.ts"),
          import("../../adapters/web/config.ts"),
          import("../../adapters/web/login-link.ts"),
        ]);
        const config = webConfig(lilo.config);
        const owner = o.user ?? ANY_USER;
        if (o.link) {
          const url = botPagesUrl(lilo);
          if (!url) throw new ConfigError("the bot serves no pages: LILO_WEB_PORT is 0 (set it, or run `lilo web`)");
          io.out(loginLink(lilo, url, owner));
          return 0;
        }
        const port = o.port !== undefined ? parseId(o.port, "--port") : config.port || DEFAULT_WEB_PORT;
        // Only --host on the command line counts as choosing an address other than loopback on purpose
        // (a LILO_WEB_HOST left in .env for the bot's pages does not open `lilo web` to the network).
        const hostGiven = cmd.getOptionValueSource("host") === "cli";
        const server = await startWebServer(lilo, lilo.logger, { host: o.host ?? config.host, port, hostGiven, publicUrl: config.publicUrl });
        io.out(server.loginLink(owner));
        io.out(`Lilo's pages: ${server.url} — the link above logs in once within ${config.linkMinutes} minutes; Ctrl-C stops.`);
        await until();
        await server.close();
        return 0;
      }),
    );
}
