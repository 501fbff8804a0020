import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeWeb, rss, type FakeWeb } from "../fakes/fake-web.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { seedExchange } from "../helpers/seed-chat.ts";
import { createLilo, fixedClock } from "../../core/index.ts";
import { openLiloDatabase } from "../../core/foundation/store/db.ts";
import { runCli } from "../helpers/cli.ts";
import { whyText } from "../../adapters/shared/why-texts.ts";

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
    // A thought that draws on no feed item is Lilo's inference.
    expect(made[1]!.lilo.memory.list("chris", { store: "thoughts" })[0]!.extra).toMatchObject({ provenance: "inference" });
  });

  it("a thought that draws on a feed item names its URL as its origin wherever an origin is shown (/why, lilo why, lilo memory show, the export)", async () => {
    const STREIK = "https://bahn.example/streik";
    web.page(
      "/bahn.xml",
      "application/rss+xml",
      rss("Bahn-News", [
        { guid: "b1", title: "Bahnstreik legt den Fernverkehr lahm", link: STREIK, description: "Ab Mittwoch.", pubDate: "2026-12-02T11:00:00Z" },
        { guid: "b2", title: "Neues Sprachmodell", link: "https://ki.example/2", description: "Offen und klein.", pubDate: "2026-12-02T10:00:00Z" },
      ]),
    );
    const t = makeTestLilo(
      {
        ANTHROPIC_API_KEY: "k",
        ANTHROPIC_BASE_URL: fake.baseURL,
        LILO_CHAT_MODEL: "anthropic:c",
        LILO_FEEDS: `${web.url}/bahn.xml`,
        LILO_REFLECTION_NEWS: "true",
        LILO_USER_NAMES: "chris=Christian",
      },
      { clock },
    );
    made.push(t);
    await t.lilo.lookups.news.fetchAll();
    seedExchange(t.lilo, "chris", "Morgen fahre ich nach Hamburg, hoffentlich kommt kein Bahnstreik.", "Drück dir die Daumen!", "2026-12-02T19:00:00Z");
    const text = "Christian fährt morgen nach Hamburg; der Bahnstreik könnte ihn treffen.";
    fake.replyAlways(`1. ${text}`);
    const result = await t.lilo.reflection.thinkNow("chris");
    expect(result).toMatchObject({ kind: "thought" });
    const thought = t.lilo.memory.list("chris", { store: "thoughts" })[0]!;
    expect(thought.text).toBe(text);
    expect(thought.extra).toMatchObject({ provenance: "lookup", provenance_ref: STREIK });

    // The next answer's sheet holds the thought (found by its words); /why names the feed item.
    t.embedder.set(text, [1, ...Array<number>(63).fill(0)]).set("Betrifft mich der Bahnstreik?", [1, ...Array<number>(63).fill(0)]);
    const answer = await t.lilo.handleMessage({ userId: "chris", text: "Betrifft mich der Bahnstreik?" });
    expect(whyText("de", t.lilo.why.why("chris"), false)).toContain(`T${thought.id} · Gedanke: ${text}\n   ↳ nachgeschlagen (${STREIK})`);
    const db = openLiloDatabase(t.lilo.config);
    try {
      const cli = (...args: string[]) => runCli(() => createLilo(t.lilo.config, { embedder: t.embedder, db, clock }), args);
      expect((await cli("why", String(answer.answerMessageId))).out).toContain(`[from: lookup ${STREIK}] ${text}`);
      expect((await cli("memory", "show", String(thought.id), "--store", "thoughts")).out).toContain(`from:  lookup ${STREIK}`);
    } finally {
      db.close();
    }
    expect(t.lilo.transfer.export("thoughts", "chris").find((l) => l.text === text)).toMatchObject({ provenance: "lookup", provenanceRef: STREIK });
  });
});
