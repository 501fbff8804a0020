import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { ControlledEmbedder } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../../helpers/test-lilo.ts";
import { boundaryRequest } from "../../../core/conversation/boundaries/detect.ts";
import { fixedClock } from "../../../core/index.ts";

// "Sprich X nicht mehr an" becomes a boundary after the user's yes, and every job that speaks on its
// own honours it — the sheet, follow-up topics, due topics, greetings, concerns from the reflection, the diary ping.
const clock = fixedClock("2026-12-02T18:00:00Z");
const body = (b: AnthropicRequestBody) => JSON.stringify(b);
const lastUser = (b: AnthropicRequestBody) => String(b.messages.at(-1)?.content ?? "");

describe("boundaries", () => {
  it.each([
    ["Sprich meine Arbeit bitte nicht mehr an.", "meine Arbeit"],
    ["Sprich mich nicht mehr auf Tom an!", "Tom"],
    ["Erwähne die Diät nie wieder.", "die Diät"],
    ["Frag mich nicht mehr nach meinem Ex.", "meinem Ex"],
    ["Please don't bring up my job again.", "my job"],
    ["Stop mentioning politics.", "politics"],
    ["Wie war dein Tag?", undefined],
    ["Sprich das nicht mehr an", undefined],
  ])("reads %s as %s", (text, topic) => {
    expect(boundaryRequest(text)).toBe(topic);
  });

  describe("honoured per job", () => {
    let fake: FakeAnthropic;
    let t: TestLilo;
    beforeAll(async () => {
      fake = await startFakeAnthropic();
      fake.replyAlways((b) => {
        if (isExtraction(b.system)) return NO_EXTRACTION;
        if (b.system?.includes("Tagebuch")) return "Heute ging es wieder um seine Arbeit.";
        if (b.system?.includes("denkst über eure letzten Gespräche nach")) return "Ein Gedanke. [ANSPRECHEN: Frag ihn nach seiner Arbeit.]";
        if (lastUser(b).includes("Urlaub")) return "Schön! [FOLLOWUP: Wie läuft es auf der Arbeit?] [FOLLOWUP: Wie war der Urlaub?]";
        return "Okay.";
      });
      t = makeTestLilo(fakeAnthropicEnv(fake), { clock, embedder: new ControlledEmbedder(256) });
      await t.lilo.memory.add({ text: "Christian hat Stress mit dem Chef auf der Arbeit", userId: "chris", store: "notes" });
      await t.lilo.memory.add({ text: "Christian trinkt gern Tee", userId: "chris", store: "important" });
    });
    afterAll(async () => {
      await t.cleanup();
      await fake.close();
    });

    it("becomes a boundary only after the user's yes", async () => {
      const r = await t.lilo.handleMessage({ userId: "chris", text: "Sprich meine Arbeit bitte nicht mehr an." });
      expect(r.question?.text).toBe("Soll ich „meine Arbeit“ nicht mehr von mir aus ansprechen? 🚧");
      expect(t.lilo.boundaries.list("chris")).toEqual([]);
      clock.advance(60_000);
      const yes = await t.lilo.handleMessage({ userId: "chris", text: "Ja" });
      expect(yes.text).toBe("🚧 Verstanden: „meine Arbeit“ spreche ich nicht mehr von mir aus an.");
      expect(t.lilo.boundaries.list("chris").map((b) => b.text)).toEqual(["meine Arbeit"]);
    });

    it("the sheet keeps the topic off, naming it as a boundary, until a message raises it", async () => {
      const from = fake.requests.length;
      clock.advance(60_000);
      await t.lilo.handleMessage({ userId: "chris", text: "Wie geht es dir heute, mit Tee?" });
      const sheet = fake.requests.slice(from).find((b) => !isExtraction(b.system))!;
      expect(sheet.system).not.toContain("Stress mit dem Chef");
      expect(sheet.system).toContain("Grenzen – diese Themen sprichst du NIE von dir aus an");
      expect(sheet.system).toContain("- meine Arbeit");
      const raised = fake.requests.length;
      clock.advance(60_000);
      await t.lilo.handleMessage({ userId: "chris", text: "Meine Arbeit stresst mich, der Chef nervt." });
      expect(fake.requests.slice(raised).find((b) => !isExtraction(b.system))!.system).toContain("Stress mit dem Chef");
    });

    it("follow-up topics about it are neither opened nor brought up", async () => {
      clock.advance(60_000);
      await t.lilo.handleMessage({ userId: "chris", text: "Ich fahre morgen in den Urlaub." });
      await t.lilo.idle();
      expect(t.lilo.topics.list("chris").map((x) => x.text)).toEqual(["Wie war der Urlaub?"]);
      t.lilo.topics.add("chris", "Frag, wie die Arbeit läuft", "followup", clock.now().toISOString());
      const from = fake.requests.length;
      clock.advance(60_000);
      await t.lilo.handleMessage({ userId: "chris", text: "Guten Morgen" });
      expect(body(fake.requests.slice(from).find((b) => !isExtraction(b.system))!)).not.toContain("wie die Arbeit läuft");
    });

    it("greetings leave it out of their context, naming it as a boundary", async () => {
      const from = fake.requests.length;
      await t.lilo.greeting.preview("chris");
      const greeting = fake.requests.slice(from).at(-1)!;
      expect(body(greeting)).not.toContain("Meine Arbeit stresst mich");
      expect(greeting.system).toContain("- meine Arbeit");
    });

    it("reflection raises no concern about it, naming it as a boundary", async () => {
      const r = await t.lilo.reflection.thinkNow("chris");
      expect(r.kind).toBe("thought");
      expect("concern" in r ? r.concern : undefined).toBeUndefined();
      expect(t.lilo.topics.list("chris").some((x) => x.kind === "concern")).toBe(false);
      expect(fake.requests.at(-1)!.messages[0]!.content).toContain("- meine Arbeit");
    });

    it("diary: an entry about it gets no ping", async () => {
      const r = await t.lilo.diary.writeNow("chris");
      expect(r.kind).toBe("written");
      expect("ping" in r ? r.ping : undefined).toBeUndefined();
      expect(fake.requests.at(-1)!.messages[0]!.content).toContain("- meine Arbeit");
    });
  });
});
