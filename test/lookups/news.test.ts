import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeWeb, rss, atom, type FakeWeb } from "../fakes/fake-web.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../helpers/test-lilo.ts";
import { fixedClock } from "../../core/index.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");

describe("news feeds", () => {
  let web: FakeWeb;
  let fake: FakeAnthropic;
  let t: TestLilo;
  beforeEach(async () => {
    web = await startFakeWeb();
    fake = await startFakeAnthropic();
    web.page(
      "/rss.xml",
      "application/rss+xml",
      rss("KI-Ticker", [
        {
          guid: "k1",
          title: "Neues Sprachmodell veröffentlicht",
          link: "https://ki.example/modell",
          description: "Ein offenes Sprachmodell mit 8 Milliarden Parametern.",
          pubDate: "2026-12-01T10:00:00Z",
        },
        { guid: "k2", title: "Roboter lernt Kaffee kochen", link: "https://ki.example/roboter", pubDate: "2026-11-30T10:00:00Z" },
        { guid: "k0", title: "Alte Meldung über Sprachmodelle", link: "https://ki.example/alt", pubDate: "2026-09-01T10:00:00Z" },
      ]),
    );
    web.page(
      "/atom.xml",
      "application/atom+xml",
      atom("Tech-Blog", [
        {
          id: "urn:a1",
          title: "Sprachmodelle im Alltag",
          link: "https://blog.example/alltag",
          summary: "Wie Menschen Sprachmodelle nutzen.",
          updated: "2026-12-02T09:00:00Z",
        },
        // The same story as k1 under another id: kept once (same URL).
        { id: "urn:a2", title: "Neues Sprachmodell (Kopie)", link: "https://ki.example/modell", updated: "2026-12-01T11:00:00Z" },
      ]),
    );
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_FEEDS: `${web.url}/rss.xml,${web.url}/atom.xml`, LILO_NATIVE_TOOLS: "markers" }), { clock });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
    await web.close();
  });

  it("stores each story of its RSS or Atom feeds once (by GUID or URL), none past retention, however often it fetches", async () => {
    const news = t.lilo.lookups.news;
    const first = await news.fetchAll();
    expect(first.feeds).toEqual([
      { url: `${web.url}/rss.xml`, added: 2 },
      { url: `${web.url}/atom.xml`, added: 1 },
    ]);
    expect(first.pruned).toBe(0); // the September item is older than 30 days: never stored
    expect(news.itemCount()).toBe(3);
    expect((await news.fetchAll()).feeds.map((f) => f.added)).toEqual([0, 0]);
    expect(news.list().map((f) => [f.source, f.title])).toEqual([
      ["env", "KI-Ticker"],
      ["env", "Tech-Blog"],
    ]);
    expect(news.search("sprachmodell").map((i) => i.title)).toEqual(["Sprachmodelle im Alltag", "Neues Sprachmodell veröffentlicht"]);
  });

  it("drops items once they are older than the retention time (LILO_FEEDS_RETENTION_DAYS)", async () => {
    const news = t.lilo.lookups.news;
    await news.fetchAll();
    clock.set("2026-12-31T12:00:00Z"); // 30 days after 1 Dec 11:00 UTC: the two items from 30 Nov and 1 Dec go
    try {
      expect((await news.fetchAll()).pruned).toBe(2);
      expect(news.newest(10).map((i) => i.title)).toEqual(["Sprachmodelle im Alltag"]);
    } finally {
      clock.set("2026-12-02T18:00:00Z");
    }
  });

  it("[NEWS:] (and the old [KINEWS:]) find the items by words, newest first, in the follow-up", async () => {
    await t.lilo.lookups.news.fetchAll();
    fake.replyAlways((b) =>
      isExtraction(b.system)
        ? NO_EXTRACTION
        : String(b.messages.at(-1)?.content).startsWith("Fundstücke")
          ? "Es gibt ein neues offenes Sprachmodell."
          : "[NEWS: Sprachmodell] [KINEWS: Roboter]",
    );
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Was gibt's Neues bei KI?" });
    expect(r.text).toBe("Es gibt ein neues offenes Sprachmodell.");
    expect(fake.requests[0]!.system).toContain("[NEWS:");
    const results = fake.requests[1]!.messages.at(-1)!.content;
    expect(results).toContain("Passende Meldungen aus deinen Nachrichtenquellen");
    expect(results.indexOf("Tech-Blog: Sprachmodelle im Alltag")).toBeLessThan(results.indexOf("KI-Ticker: Neues Sprachmodell veröffentlicht"));
    expect(results).toContain("Ein offenes Sprachmodell mit 8 Milliarden Parametern.");
    expect(results).toContain("KI-Ticker: Roboter lernt Kaffee kochen");
    expect(results).not.toContain("Kopie");
  });

  it("a feed added at run time is fetched until it is removed, its items going with it", async () => {
    web.page(
      "/extra.xml",
      "application/rss+xml",
      rss("Extra", [{ guid: "e1", title: "Extra-Meldung", link: "https://extra.example/1", pubDate: "2026-12-02T10:00:00Z" }]),
    );
    const news = t.lilo.lookups.news;
    news.add(`${web.url}/extra.xml`);
    await news.fetchAll();
    expect(news.search("Extra").map((i) => i.title)).toEqual(["Extra-Meldung"]);
    expect(news.remove(`${web.url}/extra.xml`)).toBe(true);
    expect(news.search("Extra")).toEqual([]);
  });

  it("a feed from LILO_FEEDS cannot be removed at run time: the refusal names the setting", () => {
    expect(() => t.lilo.lookups.news.remove(`${web.url}/rss.xml`)).toThrow(/LILO_FEEDS/);
  });
});
