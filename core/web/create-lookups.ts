import type { LiloConfig } from "../config.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { WebSearch } from "../ports/web-search.ts";
import type { Db } from "../store/db.ts";
import { SearxngSearch } from "../providers/searxng.ts";
import { BraveSearch } from "../providers/brave-search.ts";
import { FeedStore } from "../store/feeds.ts";
import { News } from "../news/news.ts";
import { ToolCalling } from "../tools/tool-calling.ts";
import { Lookups } from "./lookups.ts";
import { SearchLog } from "../store/search-log.ts";

/** The configured web search provider, if any. */
export function createWebSearch(config: LiloConfig["lookup"]["search"]): WebSearch | undefined {
  if (config.provider === "searxng" && config.searxngUrl) return new SearxngSearch({ baseUrl: config.searxngUrl, timeoutMs: config.timeoutMs });
  if (config.provider === "brave" && config.braveApiKey) return new BraveSearch({ baseUrl: config.braveUrl, apiKey: config.braveApiKey, timeoutMs: config.timeoutMs });
  return undefined;
}

/** Search log, news, lookups and tool settings, wired for createLilo. */
export function createLookups(config: LiloConfig["lookup"], db: Db, clock: Clock, logger: Logger, webSearch?: WebSearch) {
  const searchLog = new SearchLog(db);
  const news = new News(new FeedStore(db), config, clock, logger);
  const lookups = new Lookups({ config, clock, logger, searchLog, news, webSearch: webSearch ?? createWebSearch(config.search) });
  const tools = new ToolCalling(config.tools, logger);
  return { searchLog, news, lookups, tools };
}
