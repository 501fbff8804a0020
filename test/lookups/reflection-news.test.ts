import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeWeb, rss, type FakeWeb } from "../fakes/fake-web.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { seedExchange } from "../helpers/seed-chat.ts";
import { fixedClock } from "../../core/index.ts";

const clock = fixedClock("2026-12-02T21:00:00Z");

describe("reflection with the newest news items", () => {
  let fake: FakeAnthropic;
  let web: FakeWeb;
  const made: TestLilo[] = [];
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways("1. Christian denkt in Systemen.");
    web = await startFakeWeb();
    web.page(
      "/rss.xml",
      "application/rss+xml",
      rss("KI-Ticker", [
        { guid: "k1", title: "Neues Sprachmodell", link: "https://ki.example/1", description: "Offen und klein.", pubDate: "2026-12-02T10:00:00Z" },
      ]),
    );
  });
  afterEach(async () => {
    for (const t of made.splice(0)) await t.cleanup();
    await fake.close();
    await web.close();
  });
  const lilo = async (extra: Record<string, string>) => {
    const t = makeTestLilo(
      { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "anthropic:c", LILO_FEEDS: `${web.url}/rss.xml`, ...extra },
      { clock },
    );
    made.push(t);
    await t.lilo.lookups.news.fetchAll();
    seedExchange(t.lilo, "chris", "Hallo", "Hallo!", new Date("2026-12-02T19:00:00Z"));
    return t.lilo;
  };

  it("puts them on the sheet only when LILO_REFLECTION_NEWS is on", async () => {
    await (await lilo({})).reflection.thinkNow("chris");
    expect(fake.requests.at(-1)!.messages[0]!.content).not.toContain("Neues Sprachmodell");
    await (await lilo({ LILO_REFLECTION_NEWS: "true" })).reflection.thinkNow("chris");
    expect(fake.requests.at(-1)!.messages[0]!.content).toContain("Neueste Meldungen aus deinen Nachrichtenquellen");
    expect(fake.requests.at(-1)!.messages[0]!.content).toContain("- KI-Ticker: Neues Sprachmodell — Offen und klein.");
  });
});
