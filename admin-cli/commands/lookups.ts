import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";
import { localStamp } from "./local-time.ts";

/** `lilo search-log` and `lilo feeds list|add|remove|fetch`. */
export function registerLookups(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("search-log")
    .description("web searches Lilo made: user, query, provider, result count, time (newest first)")
    .option("-u, --user <id>", "only this user's searches")
    .option("-n, --limit <n>", "how many", "50")
    .option("--json", "print JSON: [{ id, userId, query, provider, resultCount, createdAt }]")
    .action((o: { user?: string; limit: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const list = lilo.lookups.searchLog.list({ userId: o.user, limit: Math.max(1, Number(o.limit) || 50) });
        if (o.json) io.out(JSON.stringify(list));
        else if (!list.length) io.out("no searches logged");
        else
          for (const e of list)
            io.out(
              `#${e.id}  ${localStamp(e.createdAt, lilo.config.timezone)}  ${e.userId}  ${e.provider}  ${e.resultCount === null ? "failed" : `${e.resultCount} ${e.resultCount === 1 ? "result" : "results"}`}  ${e.query}`,
            );
        return 0;
      }),
    );

  const feeds = program.command("feeds").description("news feeds (RSS/Atom) Lilo searches with [NEWS:]");
  feeds
    .command("list")
    .description("feeds from LILO_FEEDS and added ones, with their last fetch")
    .option("--json", "print JSON")
    .action((o: { json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const list = lilo.lookups.news.list();
        if (o.json) io.out(JSON.stringify(list));
        else if (!list.length) io.out("no feeds (set LILO_FEEDS or run lilo feeds add <url>)");
        else {
          for (const f of list) {
            const state = f.lastError
              ? `error: ${f.lastError}`
              : f.lastFetchedAt
                ? `fetched ${localStamp(f.lastFetchedAt, lilo.config.timezone)}`
                : "not fetched yet";
            io.out(`${f.source.padEnd(5)}  ${f.url}  ${f.title ?? ""}  (${state})`);
          }
          io.out(`${lilo.lookups.news.itemCount()} items stored`);
        }
        return 0;
      }),
    );
  feeds
    .command("add <url>")
    .description("add a feed (fetched with the next run or lilo feeds fetch)")
    .action((url: string) =>
      withLilo(open, io, async (lilo) => {
        io.out(lilo.lookups.news.add(url) ? `added ${url}` : `${url} is already there`);
        return 0;
      }),
    );
  feeds
    .command("remove <url>")
    .description("remove an added feed and its items")
    .action((url: string) =>
      withLilo(open, io, async (lilo) => {
        if (lilo.lookups.news.remove(url)) {
          io.out(`removed ${url}`);
          return 0;
        }
        io.err(`no such feed: ${url}`);
        return 1;
      }),
    );
  feeds
    .command("fetch")
    .description("fetch every feed now")
    .action(() =>
      withLilo(open, io, async (lilo) => {
        const report = await lilo.lookups.news.fetchAll();
        for (const f of report.feeds) io.out(f.error ? `${f.url}: failed — ${f.error}` : `${f.url}: ${f.added} new`);
        io.out(`${report.pruned} old items removed`);
        return report.feeds.some((f) => f.error) ? 1 : 0;
      }),
    );
}
