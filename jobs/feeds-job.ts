import type { Lilo, Logger } from "../core/index.ts";

/** One scheduled fetch of every news feed; a failing feed is logged by News and does not stop the others. */
export async function runFeedsJob(lilo: Lilo, logger: Logger): Promise<void> {
  const report = await lilo.lookups.news.fetchAll();
  logger.info("feeds fetched", {
    feeds: report.feeds.length,
    added: report.feeds.reduce((n, f) => n + f.added, 0),
    failed: report.feeds.filter((f) => f.error).length,
    pruned: report.pruned,
  });
}
