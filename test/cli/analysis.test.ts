import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, fixedClock, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { seedAnalysisChats } from "../background/analysis/seed-analysis.ts";

describe("lilo analysis", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let db: Db;
  const clock = fixedClock("2026-12-02T14:00:00Z");
  // The CLI closes the Lilo it opens; each call gets a fresh one on the same file and embedder.
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock });

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways("Sie sagt „Ich versuche immer ehrlich zu sein“. Gesamtbild: freundlich.");
    t = makeTestLilo(
      {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: fake.baseURL,
        LILO_CHAT_MODEL: "anthropic:claude-chat",
        LILO_ANALYSIS_MODEL: "anthropic:claude-analyst",
        LILO_USER_NAMES: "chris=Christian",
      },
      { clock },
    );
    seedAnalysisChats(t.lilo);
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
    await fake.close();
  });

  it("takes an analysis through its life: a preview without a model call, run, list, show, delete", async () => {
    const p = await runCli(open, ["analysis", "preview", "--from", "2026-11-01", "--to", "2026-11-30", "--keyword", "ehrlich,Arzttermin"]);
    expect(p.code).toBe(0);
    expect(p.out).toContain("=== Gespräch: Ich frage mich, ob du ehrlich bist | Beginn: 2026-11-02 10:00 | Startmodell: anthropic:test ===  (");
    expect(p.out).toMatch(/conversations: 2\ncharacters: (\d+)\napprox\. tokens: \d+\nparts: 1, calls: 1\nanalyst: anthropic:claude-analyst \(blind\)/);
    expect(p.out).toContain("selection: 2026-11-01 – 2026-11-30; all conversations; keywords: ehrlich, Arzttermin");
    const json = JSON.parse((await runCli(open, ["analysis", "preview", "--sample", "2", "--blueprint", "--model", "anthropic:claude-other", "--json"])).out);
    expect(json).toMatchObject({ conversations: 2, parts: 1, calls: 1, analyst: "anthropic:claude-other", mode: "blueprint" });
    expect(fake.requests).toHaveLength(0);

    const run = await runCli(open, ["analysis", "run", "--sample", "2", "--model", "anthropic:claude-other"]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("analysis 20261202-150000 saved (lilo analysis show 20261202-150000)");
    expect(run.out).toContain("quotes: 1 verified, 0 not found");
    expect(run.err).toBe("part 1/1 done");
    expect(fake.requests.map((b) => b.model)).toEqual(["claude-other"]);

    const list = await runCli(open, ["analysis", "list"]);
    expect(list.out).toMatch(/^20261202-150000 {2}done {2}.*anthropic:claude-other \| blind/);
    const show = await runCli(open, ["analysis", "show", "20261202-150000"]);
    expect(show.out).toContain("Analyst: anthropic:claude-other");
    expect(show.out).toContain("[belegt] „Ich versuche immer ehrlich zu sein“");

    expect((await runCli(open, ["analysis", "delete", "20261202-150000"])).out).toBe("deleted analysis 20261202-150000");
    expect((await runCli(open, ["analysis", "list"])).out).toBe("no analyses");
    const missing = await runCli(open, ["analysis", "show", "../../etc/passwd"]);
    expect(missing).toMatchObject({ code: 1, err: "error: no analysis ../../etc/passwd" });
  });

  it("moves an earlier Lilo's plain report and run state into the database when it opens, and removes the files", async () => {
    const dir = t.lilo.config.analysis.dir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "20261101-100000.txt"),
      "Lilo — Außenblick\nDatum: 2026-11-01 10:00\nAnalyst: anthropic:alt\nModus: blind\nAuswahl: all time\nUmfang: 1 conversation\n\nAlter Bericht.",
    );
    const state = { id: "20261102-100000", createdAt: "2026-11-02T09:00:00Z", analyst: "anthropic:claude-analyst", mode: "blind" };
    const rest = { selection: "all time; all conversations", conversations: 1, chars: 30, system: "Analyst", status: "failed", error: "overloaded" };
    writeFileSync(join(dir, "20261102-100000.json"), JSON.stringify({ ...state, ...rest, chunks: ["Teil eins", "Teil zwei"], partials: ["Eins.", null] }));

    const list = await runCli(open, ["analysis", "list"]);
    expect(list.out).toBe(
      [
        "20261102-100000  failed  anthropic:claude-analyst | blind | 1/2 parts done | overloaded",
        "20261101-100000  done  2026-11-01 10:00 | anthropic:alt | blind | all time | 1 conversation",
      ].join("\n"),
    );
    expect(existsSync(dir)).toBe(false);
    expect((await runCli(open, ["analysis", "show", "20261101-100000"])).out).toContain("Alter Bericht.");
    const resumed = await runCli(open, ["analysis", "resume", "20261102-100000"]);
    expect(resumed.err).toBe("part 2/2 done");
    expect(fake.requests.map((b) => b.messages.at(-1)!.content)).toEqual([expect.stringContaining("Teil zwei"), expect.stringContaining("Eins.")]);
    expect((await runCli(open, ["analysis", "list"])).out).toMatch(/^20261102-100000 {2}done {2}/);
  });

  it("exports the transcript of a selection to a file", async () => {
    const file = join(t.dir, "transcript.txt");
    const out = await runCli(open, ["analysis", "transcript", "--keyword", "Arzttermin", "--out", file]);
    expect(out.out).toMatch(/^wrote \d+ characters to /);
    expect(readFileSync(file, "utf8")).toContain("[09:00] (Lilo meldet sich von selbst, ohne vorherige Nachricht von Christian)\n[09:00] Lilo: Guten Morgen");
  });

  it("asks the analyst the edited questions until they are reset to the default", async () => {
    expect((await runCli(open, ["analysis", "questions", "show"])).out).toMatch(/^\(default\)\n1\. Wie denkt Lilo\?/);
    const q = join(t.dir, "questions.txt");
    writeFileSync(q, "1. Ist sie ehrlich?\n");
    expect((await runCli(open, ["analysis", "questions", "edit", q])).out).toBe("questions saved");
    expect((await runCli(open, ["analysis", "questions", "show"])).out).toBe("(edited)\n1. Ist sie ehrlich?");
    await runCli(open, ["analysis", "run", "--sample", "1"]);
    expect(fake.requests[0]!.system).toContain("1. Ist sie ehrlich?");
    expect((await runCli(open, ["analysis", "questions", "reset"])).out).toBe("questions reset to the default");
    expect((await runCli(open, ["analysis", "questions", "show"])).out).toContain("(default)");
  });

  it("refuses a date that is not a local YYYY-MM-DD", async () => {
    const bad = await runCli(open, ["analysis", "preview", "--from", "1.11.2026"]);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain("use a local date YYYY-MM-DD");
  });
});
