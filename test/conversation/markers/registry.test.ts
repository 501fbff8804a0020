import { describe, expect, it } from "vitest";
import type { StoreMarkerDefinition, StoreMarkerServices } from "../../../core/conversation/markers/marker.ts";
import { MARKERS } from "../../../core/conversation/markers/registry.ts";
import { parseMarkers } from "../../../core/conversation/markers/parse.ts";
import { markerInstructions } from "../../../core/conversation/prompts/markers.ts";
import { executeStoreMarkers } from "../../../core/conversation/markers/execute.ts";
import { fixedClock, silentLogger } from "../../../core/index.ts";
import { startFakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";

/** A test-only store marker: adding a marker is this one object, nothing else. */
const saved: string[] = [];
const WISH: StoreMarkerDefinition = {
  name: "WISH",
  aliases: ["WUNSCH"],
  kind: "store",
  offer: "chat",
  instruction: { de: "Äußert dein Gegenüber einen Wunsch: [WISH: der Wunsch]", en: "When the user wishes for something: [WISH: the wish]" },
  store(payload) {
    saved.push(payload);
    return { storedId: saved.length };
  },
};

describe("a marker is one object in the registry", () => {
  const registry = MARKERS.with(WISH);

  it("is parsed (name and alias), taught, offered in chat and executed from that one definition", async () => {
    const parsed = parseMarkers("Gern! [WISH: ein Fahrrad] [wunsch: Ruhe] `[WISH: Beispiel]`", registry);
    expect(parsed.markers).toEqual([
      { name: "WISH", payload: "ein Fahrrad", kind: "store" },
      { name: "WISH", payload: "Ruhe", kind: "store" },
    ]);
    expect(parsed.text).toBe("Gern! `[WISH: Beispiel]`");
    expect(markerInstructions("de", ["WISH"], registry)).toContain("[WISH: der Wunsch]");
    expect(registry.chatNames()).toContain("WISH");
    const effects = await executeStoreMarkers(
      { logger: silentLogger, followupDueDays: 7 } as unknown as StoreMarkerServices & { logger: typeof silentLogger },
      { userId: "chris", userMessageId: 1, conversationId: 1, now: new Date() },
      parsed.markers,
      registry,
    );
    expect(saved).toEqual(["ein Fahrrad", "Ruhe"]);
    expect(effects.stored).toEqual({ WISH: [1, 2] });
  });

  it("is unknown to Lilo's own registry: stripped like any unknown marker, never executed", () => {
    expect(parseMarkers("Gern! [WISH: ein Fahrrad]", MARKERS)).toEqual({ text: "Gern!", markers: [] });
  });

  it("refuses a second definition of one name", () => {
    expect(() => MARKERS.with({ ...WISH, name: "THOUGHT" })).toThrow(/defined twice/);
  });
});

describe("teaching order is carried by the marker objects", () => {
  it("keeps Lilo's order whatever order the feature lists are gathered in", () => {
    expect(MARKERS.names()).toEqual([
      "RECALL", "DIARY", "IMPORTANT", "SEARCH", "FETCH", "KINEWS", "THOUGHT", "FOLLOWUP", "EMOTION", "VORSCHLAG", "ANSPRECHEN",
    ]);
  });

  it("places a new store marker by its teachOrder alone (one object, no registry edit)", () => {
    const registry = MARKERS.with({ ...WISH, teachOrder: 35 });
    expect(registry.names().slice(2, 5)).toEqual(["IMPORTANT", "WISH", "SEARCH"]);
    const prompt = markerInstructions("en", ["IMPORTANT", "WISH", "SEARCH"], registry).split("\n");
    expect(prompt.slice(1, 4).map((l) => l.slice(0, 12))).toEqual(["- When somet", "- When the u", "- When you n"]);
  });
});

describe("a test-only marker in a real chat turn", () => {
  it("is taught on the sheet, executed from the model's answer and stripped", async () => {
    const fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Klar! [WISH: ein Tandem]"));
    const t = makeTestLilo(fakeAnthropicEnv(fake), { clock: fixedClock("2026-12-02T18:00:00Z"), markers: MARKERS.with(WISH) });
    try {
      const result = await t.lilo.handleMessage({ userId: "chris", text: "Ich hätte gern ein Tandem. [WISH: vom Nutzer]" });
      await t.lilo.idle();
      expect(result.text).toBe("Klar!");
      // Read only from the model's answer, never from the user's message.
      expect(saved).toContain("ein Tandem");
      expect(saved).not.toContain("vom Nutzer");
      expect(fake.requests.find((r) => !isExtraction(r.system))!.system).toContain("[WISH: der Wunsch]");
    } finally {
      await t.cleanup();
      await fake.close();
    }
  });
});
