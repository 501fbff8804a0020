import type { LiloConfig } from "../foundation/config/config.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import type { WebSearch } from "../foundation/ports/web-search.ts";
import type { Db } from "../foundation/store/db.ts";
import { SearxngSearch } from "./search/searxng.ts";
import { BraveSearch } from "./search/brave-search.ts";
import { FeedStore } from "../foundation/store/feeds.ts";
import { News } from "./news.ts";
import { ToolCalling } from "./tool-calling.ts";
import { Lookups } from "./lookups.ts";
import { SearchLog } from "../foundation/store/search-log.ts";

/** The configured web search provider, if any. */
function createWebSearch(config: LiloConfig["lookup"]["search"]): WebSearch | undefined {
  if (config.provider === "searxng" && config.searxngUrl) return new SearxngSearch({ baseUrl: config.searxngUrl, timeoutMs: config.timeoutMs });
  if (config.provider === "brave" && config.braveApiKey)
    return new BraveSearch({ baseUrl: config.braveUrl, apiKey: config.braveApiKey, timeoutMs: config.timeoutMs });
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
