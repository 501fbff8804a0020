import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, fixedClock, silentLogger, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { startFakeWeb, rss, type FakeWeb } from "../fakes/fake-web.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { startJobs } from "../../jobs/scheduler.ts";
import { runFeedsJob } from "../../jobs/feeds-job.ts";

const clock = fixedClock("2026-12-02T18:00:00Z");

describe("lilo search-log and lilo feeds; the feeds job", () => {
  let web: FakeWeb;
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });

  beforeEach(async () => {
    web = await startFakeWeb();
    web.page(
      "/a.xml",
      "application/rss+xml",
      rss("Feed A", [{ guid: "a1", title: "Meldung A", link: "https://a.example/1", pubDate: "2026-12-02T10:00:00Z" }]),
    );
    web.page(
      "/b.xml",
      "application/rss+xml",
      rss("Feed B", [{ guid: "b1", title: "Meldung B", link: "https://b.example/1", pubDate: "2026-12-02T11:00:00Z" }]),
    );
    t = makeTestLilo({ LILO_FEEDS: `${web.url}/a.xml`, LILO_DIARY_ENABLED: "false", LILO_REFLECTION_ENABLED: "false" }, { clock });
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
    await web.close();
  });

  it("lilo feeds manages the run-time feeds: add, fetch, list, remove, never one from LILO_FEEDS", async () => {
    expect((await runCli(open, ["feeds", "add", `${web.url}/b.xml`])).out).toBe(`added ${web.url}/b.xml`);
    expect((await runCli(open, ["feeds", "add", `${web.url}/b.xml`])).out).toBe(`${web.url}/b.xml is already there`);
    const fetched = await runCli(open, ["feeds", "fetch"]);
    expect(fetched).toMatchObject({ code: 0 });
    expect(fetched.out).toContain(`${web.url}/a.xml: 1 new`);
    expect(fetched.out).toContain(`${web.url}/b.xml: 1 new`);
    const list = await runCli(open, ["feeds", "list"]);
    expect(list.out).toContain(`env    ${web.url}/a.xml  Feed A  (fetched 2026-12-02 19:00)`);
    expect(list.out).toContain(`added  ${web.url}/b.xml  Feed B`);
    expect(list.out).toContain("2 items stored");
    expect((await runCli(open, ["feeds", "remove", `${web.url}/b.xml`])).code).toBe(0);
    expect((await runCli(open, ["feeds", "remove", `${web.url}/a.xml`])).err).toContain("LILO_FEEDS");
    expect((await runCli(open, ["feeds", "remove", "https://nope.example/x"])).code).toBe(1);
  });

  it("lists the search log, newest first", async () => {
    t.lilo.lookups.searchLog.add({ userId: "chris", query: "Wetter Berlin", provider: "searxng", resultCount: 5, at: "2026-12-01T10:00:00Z" });
    t.lilo.lookups.searchLog.add({ userId: "anna", query: "Zugausfall", provider: "brave", resultCount: null, at: "2026-12-02T10:00:00Z" });
    const r = await runCli(open, ["search-log"]);
    expect(r.out.split("\n")).toEqual([
      "#2  2026-12-02 11:00  anna  brave  failed  Zugausfall",
      "#1  2026-12-01 11:00  chris  searxng  5 results  Wetter Berlin",
    ]);
    expect(JSON.parse((await runCli(open, ["search-log", "--user", "chris", "--json"])).out)).toMatchObject([{ query: "Wetter Berlin", resultCount: 5 }]);
  });

  it("lilo settings shows the lookup settings, of the Brave key only that it is set", async () => {
    await t.cleanup();
    t = makeTestLilo({ BRAVE_SEARCH_API_KEY: "brave-SECRET-9", LILO_FEEDS: `${web.url}/a.xml`, LILO_NATIVE_TOOLS: "markers,anthropic=native" }, { clock });
    db.close();
    db = openLiloDatabase(t.lilo.config);
    const r = await runCli(open, ["settings"]);
    expect(r.out).toMatch(/search\.provider = brave/);
    expect(r.out).toMatch(/tools\.native = markers,anthropic=native/);
    expect(r.out).toMatch(/BRAVE_SEARCH_API_KEY: set$/m);
    expect(r.out).not.toContain("brave-SECRET-9");
  });

  it("schedules the feeds job when feeds exist, a run storing their items", async () => {
    const running = startJobs(t.lilo, silentLogger);
    try {
      expect(running.jobs.feeds?.nextRun(new Date("2026-12-02T12:10:00Z"))?.toISOString()).toBe("2026-12-02T12:30:00.000Z");
    } finally {
      await running.stop();
    }
    await runFeedsJob(t.lilo, silentLogger);
    expect(t.lilo.lookups.news.search("Meldung").map((i) => i.title)).toEqual(["Meldung A"]);
  });
});
