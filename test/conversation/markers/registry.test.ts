import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { fetchMarker, type StoreMarkerDefinition, type StoreMarkerServices } from "../../../core/conversation/markers/marker.ts";
import { MARKERS, type MarkerName } from "../../../core/conversation/markers/registry.ts";
import { toolPayload, toolSpecs } from "../../../core/conversation/tools/tool-specs.ts";
import { parseMarkers } from "../../../core/conversation/markers/parse.ts";
import { markerInstructions } from "../../../core/conversation/prompts/markers.ts";
import { executeStoreMarkers } from "../../../core/conversation/markers/execute.ts";
import { fixedClock, silentLogger } from "../../../core/index.ts";
import { startFakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { seedExchange } from "../../helpers/seed-chat.ts";

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

  it("works from its one definition alone (parsing, teaching, chat, execution)", async () => {
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
      "RECALL",
      "DIARY",
      "IMPORTANT",
      "SEARCH",
      "FETCH",
      "NEWS",
      "THOUGHT",
      "FOLLOWUP",
      "REMIND",
      "EMOTION",
      "VORSCHLAG",
      "ANSPRECHEN",
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
  it("runs through a chat turn from the model's answer only", async () => {
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

describe("a marker added through LiloPorts.markers is honoured everywhere, not only in the chat turn", () => {
  it("is stripped by its alias from background texts only where it is registered", async () => {
    const fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Schön, dich zu sehen. [wunsch: Ruhe]"));
    const clock = fixedClock("2026-12-02T18:00:00Z");
    const plugin = makeTestLilo(fakeAnthropicEnv(fake), { clock, markers: MARKERS.with(WISH) });
    const plain = makeTestLilo(fakeAnthropicEnv(fake), { clock });
    try {
      for (const { lilo } of [plugin, plain]) seedExchange(lilo, "chris", "Ich hätte gern Ruhe.", "Verstehe ich.", "2026-12-02T16:00:00Z");
      expect(await plugin.lilo.greeting.preview("chris")).toMatchObject({ kind: "draft", text: "Schön, dich zu sehen." });
      expect(await plain.lilo.greeting.preview("chris")).toMatchObject({ kind: "draft", text: "Schön, dich zu sehen. [wunsch: Ruhe]" });
      expect(await plugin.lilo.diary.writeNow("chris")).toMatchObject({ kind: "written" });
      expect(plugin.lilo.diary.list("chris").map((e) => e.text)).toEqual(["Schön, dich zu sehen."]);
    } finally {
      await plugin.cleanup();
      await plain.cleanup();
      await fake.close();
    }
  });
});

describe("a fetch marker carries its native tool", () => {
  const PLANTS = fetchMarker({
    name: "PLANTS",
    kind: "fetch",
    offer: "chat",
    instruction: { de: "Pflanzen: [PLANTS: Name]", en: "Plants: [PLANTS: name]" },
    tool: { name: "plant_search", description: "Look a plant up.", args: z.object({ query: z.string().min(1) }).strict() },
    fetch: async (marker) => ({ marker, status: "unavailable" }),
  });

  it("becomes a tool whose call reads back as the marker", () => {
    const registry = MARKERS.with(PLANTS);
    expect(toolSpecs(registry, []).map((t) => t.name)).toEqual(["memory_search", "recall", "diary_search", "set_reminder", "plant_search"]);
    expect(toolSpecs(MARKERS, ["search", "news"]).map((t) => t.name)).toEqual([
      "memory_search",
      "recall",
      "diary_search",
      "web_search",
      "news_search",
      "set_reminder",
    ]);
    const call = toolPayload(registry, "plant_search", { query: "Monstera" });
    expect(call.ok && { marker: call.marker?.name, payload: call.payload }).toEqual({ marker: "PLANTS", payload: "Monstera" });
    expect(toolPayload(MARKERS, "plant_search", { query: "Monstera" })).toEqual({ ok: false, error: "unknown tool plant_search" });
    expect(toolPayload(registry, "memory_search", { query: "Katze" })).toEqual({ ok: true, marker: undefined, payload: "Katze" });
  });

  it("refuses a lookup marker that names no lookup (it would never be offered)", () => {
    expect(() => MARKERS.with({ ...PLANTS, offer: "lookup" })).toThrow(/PLANTS names no lookup/);
    expect(MARKERS.with({ ...PLANTS, offer: "lookup", lookup: "search" }).get("PLANTS")?.offer).toBe("lookup");
  });

  it("keeps the built-in names as one union type, widened by a plugin's registry", () => {
    expectTypeOf<MarkerName>().toEqualTypeOf<
      "RECALL" | "DIARY" | "IMPORTANT" | "SEARCH" | "FETCH" | "NEWS" | "THOUGHT" | "FOLLOWUP" | "EMOTION" | "VORSCHLAG" | "ANSPRECHEN" | "REMIND"
    >();
    expectTypeOf(MARKERS.with(PLANTS).names()).toEqualTypeOf<(MarkerName | "PLANTS")[]>();
  });
});
