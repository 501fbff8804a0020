import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { basisVector, vectorWithCosine } from "../fakes/controlled-embedder.ts";
import { localStamp } from "../../admin-cli/commands/local-time.ts";
import { runCli } from "../helpers/cli.ts";
import { startScenario, say, USER, type Scenario } from "../conversation/correction/scenario.ts";

const DIM = 64;

describe("lilo corrections / rules / profile", () => {
  let s: Scenario;
  let db: Db;
  // The CLI closes the Lilo it opens; each call gets a fresh one on the same file, embedder and clock.
  const open = (): Lilo => createLilo(s.t.lilo.config, { embedder: s.t.embedder, db, clock: s.clock });

  beforeEach(async () => {
    s = await startScenario();
    db = openLiloDatabase(s.t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await s.cleanup();
  });

  it("lists a correction in full (old text, new text, trigger, time), undoing it with row and vector back", async () => {
    const msg = "Trödeltrupp habe ich nie erwähnt!";
    const q = basisVector(DIM, 0);
    s.t.embedder.set(msg, q).set("Geissens", q);
    s.t.embedder.set("Christian schaut Die Geissens und Trödeltrupp", vectorWithCosine(q, 0.5, 5));
    s.t.embedder.set("Christian schaut Die Geissens", vectorWithCosine(q, 0.6, 6));
    const added = await s.t.lilo.memory.add({ text: "Christian schaut Die Geissens und Trödeltrupp", userId: USER });
    const id = added.added ? added.id : -1;
    s.judge = JSON.stringify({ verdicts: [{ id: `n${id}`, action: "rewrite", text: "Christian schaut Die Geissens", reason: "nie erwähnt" }] });
    await say(s, msg);

    const list = await runCli(open, ["corrections", "list", "--user", USER]);
    expect(list.code).toBe(0);
    // 18:00 UTC is 19:00 in Berlin.
    expect(list.out).toContain(`#1  2026-12-02 19:00  rewrite  notes #${id}`);
    expect(list.out).toContain("old:     Christian schaut Die Geissens und Trödeltrupp");
    expect(list.out).toMatch(/new: {5}Christian schaut Die Geissens {2}\(#\d+\)/);
    expect(list.out).toContain(`trigger: ${msg}`);
    expect(list.out).toContain("reason:  nie erwähnt");
    expect((await runCli(open, ["corrections", "list"])).out).toBe("no corrections"); // the default user has none
    const all = JSON.parse((await runCli(open, ["corrections", "list", "--all", "--json"])).out);
    expect(all).toHaveLength(1);

    const undo = await runCli(open, ["corrections", "undo", "1"]);
    expect(undo.code).toBe(0);
    expect(undo.out).toContain(`notes #${id} restored: Christian schaut Die Geissens und Trödeltrupp`);
    const hits = await s.t.lilo.memory.search("Geissens", { userId: USER, minScore: 0.3 });
    expect(hits.map((h) => h.text)).toEqual(["Christian schaut Die Geissens und Trödeltrupp"]);
    expect((await runCli(open, ["corrections", "list", "-u", USER])).out).toContain("(undone 2026-12-02 19:00)");

    const again = await runCli(open, ["corrections", "undo", "1"]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("undone already");
  });

  it("undoing a profile verdict names the entry's id now, a new one when its old id was taken since", async () => {
    const last = s.t.lilo.profile.add(USER, "other", "Isst gern Linsen");
    const gone = await s.t.lilo.why.verdict(USER, `P${last.id}`, "outdated");
    const taken = s.t.lilo.profile.add(USER, "other", "Isst gern Reis");
    expect(taken.id).toBe(last.id);
    const undo = await runCli(open, ["corrections", "undo", String(gone!.correctionId!)]);
    expect(undo.code).toBe(0);
    const restored = s.t.lilo.profile.list(USER).find((p) => p.text === "Isst gern Linsen")!;
    expect(restored.id).not.toBe(last.id);
    expect(undo.out).toContain(`profile #${restored.id} restored: Isst gern Linsen`);
  });

  it("rules are changed by hand (list, disable, enable, edit, delete), never added", async () => {
    const now = s.clock.now().toISOString();
    const id = s.t.lilo.rules.add(USER, "Antworte ohne Aufzählungen.");
    // Local time (LILO_TIMEZONE), like every list.
    expect((await runCli(open, ["rules", "list", "-u", USER])).out).toBe(
      `#${id}  on   ${localStamp(now, s.t.lilo.config.timezone)}  Antworte ohne Aufzählungen.`,
    );

    expect((await runCli(open, ["rules", "disable", String(id)])).out).toBe(`rule #${id} disabled`);
    expect(s.t.lilo.rules.list(USER, { onlyEnabled: true })).toEqual([]);
    expect((await runCli(open, ["rules", "list", "-u", USER])).out).toContain("off");
    await runCli(open, ["rules", "enable", String(id)]);
    expect(s.t.lilo.rules.list(USER, { onlyEnabled: true })).toHaveLength(1);

    await runCli(open, ["rules", "edit", String(id), "Antworte kurz."]);
    const json = JSON.parse((await runCli(open, ["rules", "list", "--user", USER, "--json"])).out);
    expect(json).toMatchObject([{ id, text: "Antworte kurz.", enabled: true }]);

    expect((await runCli(open, ["rules", "delete", String(id)])).code).toBe(0);
    expect(s.t.lilo.rules.list(USER)).toEqual([]);
    const missing = await runCli(open, ["rules", "delete", String(id)]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`no rule with id ${id}`);
    expect((await runCli(open, ["rules", "add", "x"])).code).not.toBe(0);
  });

  it("profile: list by category, add, edit, delete (only the user's own entries)", async () => {
    const add = await runCli(open, ["profile", "add", "Work", "Christian arbeitet bei Siemens", "-u", USER]);
    expect(add.out).toMatch(/^added profile #\d+$/);
    await runCli(open, ["profile", "add", "person", "Christian hat eine Katze", "-u", USER]);
    const [cat, siemens] = s.t.lilo.profile.list(USER);
    expect((await runCli(open, ["profile", "list", "-u", USER])).out).toBe(
      ["person:", `  #${cat!.id}  Christian hat eine Katze`, "work:", `  #${siemens!.id}  Christian arbeitet bei Siemens`].join("\n"),
    );
    // Another user's id cannot touch it.
    const foreign = await runCli(open, ["profile", "delete", String(siemens!.id)]);
    expect(foreign.code).toBe(1);
    await runCli(open, ["profile", "edit", String(cat!.id), "Christian hat zwei Katzen", "-u", USER]);
    expect((await runCli(open, ["profile", "delete", String(siemens!.id), "--user", USER])).out).toBe(`deleted profile #${siemens!.id}`);
    expect(s.t.lilo.profile.list(USER).map((p) => p.text)).toEqual(["Christian hat zwei Katzen"]);
  });
});
