import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANY_USER, fixedClock, silentLogger } from "../../../core/index.ts";
import { itemRef } from "../../../core/internal.ts";
import { createWebApp } from "../../../adapters/web/app.tsx";
import { ControlledEmbedder } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { webLogin, type WebSession } from "./web-session.ts";

/** The characters hono/jsx escapes in text, so a page can be compared with the core's own wording. */
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** "Forget everywhere" on the pages over HTTP (app.request), on a real SQLite file: lilo.forget behind the confirmation. */
describe("Lilo's pages: forget everywhere", () => {
  const clock = fixedClock("2026-12-03T10:00:00Z");
  let t: TestLilo;
  let app: ReturnType<typeof createWebApp>;
  let alice: WebSession;
  const ids: Record<string, number> = {};

  const note = async (userId: string, text: string, store: "notes" | "important" = "notes") => {
    const r = await t.lilo.memory.add({ userId, text, store });
    if (!r.added) throw new Error(`not added: ${text}`);
    return r.id;
  };
  const get = (path: string, s: WebSession) => app.request(path, { headers: { cookie: s.cookie } });
  const post = (path: string, s: WebSession, fields: [string, string][]) =>
    app.request(path, { method: "POST", headers: { cookie: s.cookie }, body: new URLSearchParams(fields) });
  /** The hidden "item" fields of a confirmation page: what its yes forgets. */
  const shownItems = (html: string) => [...html.matchAll(/name="item" value="([^"]+)"/g)].map((m) => m[1]!);

  beforeAll(async () => {
    t = makeTestLilo({ LILO_LANGUAGE: "en" }, { clock, embedder: new ControlledEmbedder(256) });
    app = createWebApp({ lilo: t.lilo, logger: silentLogger, sessionHours: 12 });
    ids.note = await note("alice", "Alice hides the spare key under the flowerpot");
    ids.important = await note("alice", "Spare key: flowerpot by the door", "important");
    ids.profile = t.lilo.profile.add("alice", "other", "Keeps a key under the flowerpot").id;
    ids.topic = t.lilo.topics.add("alice", "Ask whether the flowerpot key is still there", "followup", "2026-12-05T10:00:00Z");
    ids.other = await note("alice", "Alice learns the cello");
    ids.bob = await note("bob", "Bob keeps his bike key under a flowerpot too");
    ids.bobOther = await note("bob", "Bob's secret: he is afraid of pigeons");
    alice = await webLogin(app, t.lilo, "alice");
  });
  afterAll(() => t.cleanup());

  const aliceHas = () => ({
    note: t.lilo.memory.get("alice", "notes", ids.note!) !== undefined,
    important: t.lilo.memory.get("alice", "important", ids.important!) !== undefined,
    profile: t.lilo.profile.list("alice").some((f) => f.id === ids.profile),
    topic: t.lilo.topics.get(ids.topic!) !== undefined,
  });

  it("by words of no meaning (a letter, stop words): the page refuses with the core's sentence and offers nothing to forget", async () => {
    for (const q of ["e", "the and"]) {
      const res = await get(`/forget?q=${encodeURIComponent(q)}`, alice);
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain(escapeHtml(`"${q}" holds no word I can look for.`));
      expect(shownItems(html)).toEqual([]);
    }
    expect(aliceHas()).toEqual({ note: true, important: true, profile: true, topic: true });
  });

  it("by words: the confirmation lists every store that holds them in the chat's wording, its no a mere link back", async () => {
    const res = await get("/forget?q=flowerpot", alice);
    expect(res.status).toBe(200);
    const html = await res.text();
    const plan = await t.lilo.forget.find("alice", "flowerpot");
    expect(new Set(plan.items.map((i) => i.kind))).toEqual(new Set(["notes", "important", "profile", "topics"]));
    // The same question the chat asks, word for word.
    expect(html).toContain(escapeHtml(t.lilo.forget.describe(plan)));
    expect(html).toContain("Shall I forget all of it?");
    // Each place with the question's name for it and what will happen to it.
    expect(html).toMatch(/<span class="badge">topic<\/span> #\d+ · holds the words<\/span><span>will be removed<\/span>/);
    expect(shownItems(html).sort()).toEqual(plan.items.map((i) => `${i.kind}:${i.id}`).sort());
    expect(html).not.toContain("bike key");
    // "No" is a link back: nothing is posted, everything stays.
    expect(html).toMatch(/<a href="\/memories" class="keep">No, keep everything<\/a>/);
    expect(aliceHas()).toEqual({ note: true, important: true, profile: true, topic: true });
  });

  it("by words: a yes without the CSRF token forgets nothing", async () => {
    const html = await (await get("/forget?q=flowerpot", alice)).text();
    const noCsrf = await app.request("/forget", {
      method: "POST",
      headers: { cookie: alice.cookie },
      body: new URLSearchParams([["q", "flowerpot"], ...shownItems(html).map((i) => ["item", i] as [string, string])]),
    });
    expect(noCsrf.status).toBe(403);
    expect(aliceHas()).toEqual({ note: true, important: true, profile: true, topic: true });
  });

  it("by words: yes forgets exactly what was shown, in every store, only the user's own", async () => {
    const html = await (await get("/forget?q=flowerpot", alice)).text();
    const yes = await post("/forget", alice, [["_csrf", alice.csrf], ["q", "flowerpot"], ...shownItems(html).map((i) => ["item", i] as [string, string])]);
    expect(yes.status).toBe(303);
    const back = yes.headers.get("location")!;
    expect(back).toMatch(/^\/memories\?done=forgotten&removed=4&rewritten=0&redacted=0$/);
    expect(aliceHas()).toEqual({ note: false, important: false, profile: false, topic: false });
    expect(await (await get(back, alice)).text()).toContain("Forgotten: 4 removed, 0 rewritten, 0 messages blacked out.");
    expect(t.lilo.memory.get("alice", "notes", ids.other!)).toBeDefined();
    expect(t.lilo.memory.get("bob", "notes", ids.bob!)?.text).toContain("flowerpot");
    const search = await (await get("/memories?q=flowerpot", alice)).text();
    expect(search).toContain("0 found");
    // Nothing left: the page says so and offers no yes.
    const again = await (await get("/forget?q=flowerpot", alice)).text();
    expect(again).toContain(t.lilo.forget.nothingFound);
    expect(shownItems(again)).toEqual([]);
  });

  it("user A cannot forget user B's item by its reference, nor by naming it in the form", async () => {
    const bobRef = itemRef("notes", ids.bobOther!);
    const page = await get(`/forget/${bobRef}`, alice);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain("pigeons");
    const byRef = await post("/forget", alice, [
      ["_csrf", alice.csrf],
      ["ref", bobRef],
      ["item", `notes:${ids.bobOther}`],
    ]);
    expect(byRef.status).toBe(404);
    // Bob's item smuggled into the yes of Alice's own forget: only Alice's goes.
    const own = itemRef("notes", ids.other!);
    const html = await (await get(`/forget/${own}`, alice)).text();
    expect(shownItems(html)).toEqual([`notes:${ids.other}`]);
    const mixed = await post("/forget", alice, [
      ["_csrf", alice.csrf],
      ["ref", own],
      ["item", `notes:${ids.other}`],
      ["item", `notes:${ids.bobOther}`],
    ]);
    expect(mixed.status).toBe(303);
    expect(mixed.headers.get("location")).toBe("/memories?done=forgotten&removed=1&rewritten=0&redacted=0");
    expect(t.lilo.memory.get("alice", "notes", ids.other!)).toBeUndefined();
    expect(t.lilo.memory.get("bob", "notes", ids.bobOther!)?.text).toContain("pigeons");
    // Words that only Bob's memories hold find nothing of Alice's.
    const words = await post("/forget", alice, [
      ["_csrf", alice.csrf],
      ["q", "pigeons"],
      ["item", `notes:${ids.bobOther}`],
    ]);
    expect(words.status).toBe(404);
    expect(t.lilo.memory.get("bob", "notes", ids.bobOther!)).toBeDefined();
  });

  it("the operator forgets for the chosen user only, as on every page", async () => {
    const operator = await webLogin(app, t.lilo, ANY_USER);
    const bobRef = itemRef("notes", ids.bobOther!);
    expect((await get(`/forget/${bobRef}?u=alice`, operator)).status).toBe(404);
    const html = await (await get(`/forget/${bobRef}?u=bob`, operator)).text();
    expect(html).toContain("pigeons");
    expect(html).toContain('action="/forget?u=bob"');
    const yes = await post("/forget?u=bob", operator, [
      ["_csrf", operator.csrf],
      ["ref", bobRef],
      ...shownItems(html).map((i) => ["item", i] as [string, string]),
    ]);
    expect(yes.status).toBe(303);
    expect(yes.headers.get("location")).toMatch(/^\/memories\?u=bob&done=forgotten&removed=1/);
    expect(t.lilo.memory.get("bob", "notes", ids.bobOther!)).toBeUndefined();
    expect(t.lilo.memory.get("bob", "notes", ids.bob!)).toBeDefined();
  });
});
