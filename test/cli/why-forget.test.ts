import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { runCli } from "../helpers/cli.ts";
import { startScenario, say, USER, type Scenario } from "../conversation/correction/scenario.ts";

// Explaining and correcting memories for the operator: lilo why, lilo forget --text [--apply], lilo boundaries, lilo memory show with provenance.
describe("lilo why / forget / boundaries / memory show", () => {
  let s: Scenario;
  let db: Db;
  /** The CLI closes the Lilo it opens; each call gets a fresh one on the same file, embedder and clock. */
  const open = (): Lilo => createLilo(s.t.lilo.config, { embedder: s.t.embedder, db, clock: s.clock });
  const cli = (...args: string[]) => runCli(open, args);
  let note = 0;
  let answerId = 0;

  beforeAll(async () => {
    s = await startScenario({ LILO_USER_NAMES: "chris=Christian", LILO_TIMEZONE: "Asia/Tokyo" });
    db = openLiloDatabase(s.t.lilo.config);
    const added = await s.t.lilo.memory.add({
      text: "Christian segelt am Wannsee",
      userId: USER,
      extra: { provenance: "user", provenance_ref: "4", subject: "user" },
    });
    if (!added.added) throw new Error("setup failed");
    note = added.id;
    s.chat = () => "Am Wannsee, nicht wahr?";
    const r = await say(s, "Wo segle ich am liebsten? Am Wannsee?");
    answerId = r.answerMessageId!;
  });
  afterAll(async () => {
    db.close();
    await s.cleanup();
  });

  it("lilo why <answer id> lists the answer's sheet with where each memory came from", async () => {
    const why = await cli("why", String(answerId));
    expect(why.code).toBe(0);
    expect(why.out).toContain(`answer ${answerId} (${USER},`);
    expect(why.out).toMatch(new RegExp(`N${note}\\s+notes\\s+\\[from: user 4; about: user\\] Christian segelt am Wannsee`));
    const json = JSON.parse((await cli("why", String(answerId), "--json")).out) as { items: { ref: string; provenance: unknown }[] };
    expect(json.items.find((i) => i.ref === `N${note}`)?.provenance).toEqual({ kind: "user", ref: "4" });
  });

  it("lilo why, lilo memory show and lilo status print local time as the lists do; --json keeps ISO", async () => {
    // The scenario's clock: 2026-12-02T18:00:00Z, which is 2026-12-03 03:00 in Tokyo.
    const local = "2026-12-03 03:00";
    expect((await cli("why", String(answerId))).out).toContain(`answer ${answerId} (${USER}, ${local}):`);
    expect(JSON.parse((await cli("why", String(answerId), "--json")).out)).toMatchObject({ createdAt: "2026-12-02T18:00:00.000Z" });
    expect((await cli("memory", "show", String(note))).out).toContain(`notes #${note} (${USER}, ${local})`);
    expect((await cli("memory", "list", "--user", USER)).out).toContain(`#${note}  ${local}  Christian segelt am Wannsee`);
    expect(JSON.parse((await cli("memory", "show", String(note), "--json")).out)).toMatchObject({ createdAt: "2026-12-02T18:00:00.000Z" });
    s.t.lilo.contacts.failed("telegram", "409 Conflict");
    s.t.lilo.contacts.ok("telegram");
    const status = await cli("status");
    expect(status.out).toMatch(new RegExp(`telegram\\s+last contact ${local} \\(0 s ago\\); last failure ${local}: 409 Conflict`));
    expect(status.out).not.toContain("2026-12-02T18:00");
    expect(JSON.parse((await cli("status", "--json")).out)).toContainEqual(expect.objectContaining({ name: "telegram", lastOkAt: "2026-12-02T18:00:00.000Z" }));
  });

  it("lilo why with an unknown answer id is an error", async () => {
    const missing = await cli("why", "999999");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no receipt for answer 999999");
  });

  it("lilo memory show prints a memory's provenance: where it came from, whom it is about", async () => {
    const shown = await cli("memory", "show", String(note));
    expect(shown.out).toContain("text:  Christian segelt am Wannsee");
    expect(shown.out).toContain("from:  user 4");
    expect(shown.out).toContain("about: user");
  });

  it("lilo profile add records the operator as the origin (shown in the export)", async () => {
    const added = await cli("profile", "add", "preferences", "Segeln", "--user", USER);
    expect(added.out, added.err).toMatch(/^added profile #\d+$/);
    expect(s.t.lilo.transfer.export("profile", USER).find((l) => l.text === "Segeln")).toMatchObject({ provenance: "operator" });
  });

  it("lilo boundaries keeps a user's boundaries: add, list, delete, never an empty one", async () => {
    expect((await cli("boundaries", "add", "meine Arbeit", "--user", USER)).out).toMatch(/^boundary #(\d+) added$/);
    const list = await cli("boundaries", "list", "--user", USER);
    expect(list.out).toMatch(/^#\d+ {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2} {2}meine Arbeit$/);
    const id = /^#(\d+)/.exec(list.out)![1]!;
    expect((await cli("boundaries", "delete", id)).out).toBe(`boundary #${id} deleted`);
    expect((await cli("boundaries", "list", "--user", USER)).out).toBe("no boundaries");
    expect((await cli("boundaries", "add", " ", "--user", USER)).code).toBe(1);
  });

  it("lilo forget --text of a single letter or stop words alone is refused with a sentence, listing and forgetting nothing", async () => {
    for (const words of ["e", "am der", "e --apply"]) {
      const r = await cli("forget", "--text", words.split(" --")[0]!, "--user", USER, ...(words.endsWith("--apply") ? ["--apply"] : []));
      expect(r.code).toBe(1);
      expect(r.out).toBe("");
      expect(r.err).toContain("holds no word I can look for. Name one that means something");
    }
    expect(s.t.lilo.memory.get(USER, "notes", note)?.text).toBe("Christian segelt am Wannsee");
  });

  it("lilo forget --text is a dry run until --apply, which forgets the note and redacts the chat messages", async () => {
    const dry = await cli("forget", "--text", "Wannsee", "--user", USER);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(new RegExp(`notes\\s+#${note}\\s+remove\\s+\\(words\\) Christian segelt am Wannsee`));
    expect(dry.out).toMatch(/messages\s+#\d+/);
    expect(dry.out).toMatch(/dry run: \d+ found; run again with --apply to forget them$/);
    expect(s.t.lilo.memory.get(USER, "notes", note)?.text).toBe("Christian segelt am Wannsee");

    const applied = await cli("forget", "--text", "Wannsee", "--user", USER, "--apply");
    expect(applied.out).toMatch(/forgotten: 1 removed, 0 rewritten, 2 messages redacted, \d+ log rows scrubbed$/);
    expect(s.t.lilo.memory.get(USER, "notes", note)).toBeUndefined();
    expect(await s.t.lilo.recall.passages("Wannsee", { userId: USER, limit: 5 })).toEqual([]);
    expect((await cli("forget", "--text", "Wannsee", "--user", USER)).out).toBe("nothing found");
    expect((await cli("forget", "--text", " ")).code).toBe(1);
  });
});
