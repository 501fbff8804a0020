import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock, ProviderError, silentLogger } from "../../../core/index.ts";
import { type AnalysisApi } from "../../../core/api/analysis-api.ts";
import { MARKERS } from "../../../core/conversation/markers/registry.ts";
import { analysisApi } from "../../../core/api/analysis-api.ts";
import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { seedAnalysisChats, seedLongConversation } from "./seed-analysis.ts";
import { openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { SettingsStore } from "../../../core/foundation/store/settings.ts";
import { AnalysesStore } from "../../../core/foundation/store/analyses.ts";
import { ProfileStore } from "../../../core/foundation/store/profile.ts";
import { ModelRegistry } from "../../../core/foundation/models/registry.ts";
import { createChatModel } from "../../../core/foundation/providers/model-factory.ts";
import { createPersona } from "../../../core/conversation/persona/persona.ts";
import { featureContext } from "../../../core/background/feature-context.ts";

const clock = fixedClock("2026-12-02T14:00:00Z");
const lastContent = (b: AnthropicRequestBody) => b.messages.at(-1)!.content;

describe("analysis: run, merge, retries, quotes, resume, blueprint", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let waits: number[];
  let sql: Db;
  let api: AnalysisApi;

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    t = makeTestLilo(
      {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: fake.baseURL,
        LILO_CHAT_MODEL: "anthropic:claude-chat",
        LILO_ANALYSIS_MODEL: "anthropic:claude-analyst",
        LILO_USER_NAMES: "chris=Christian",
        // The chat's SDK retries are on: the analysis must switch them off for its calls, or the retries multiply.
        LILO_MODEL_MAX_RETRIES: "3",
      },
      { clock },
    );
    seedAnalysisChats(t.lilo);
    waits = [];
    const l = t.lilo;
    // The analysis built on its own connection to Lilo's file, with a sleep that never waits.
    sql = openLiloDatabase(l.config);
    const settings = new SettingsStore(sql);
    const models = new ModelRegistry(l.config, (spec) => createChatModel(spec, l.config), settings);
    api = analysisApi(
      {
        db: sql,
        models,
        settings,
        analyses: new AnalysesStore(sql),
        userNames: l.config.persona.userNames,
        sleep: async (ms) => void waits.push(ms),
        markers: MARKERS,
      },
      l.config.analysis,
      createPersona(l.config.persona),
      featureContext(l.config, { clock, logger: silentLogger, profile: new ProfileStore(sql) }),
    );
  });
  afterEach(async () => {
    sql.close();
    await t.cleanup();
    await fake.close();
  });

  it("analyses a long transcript in parts: 'part i of n', a merge of the partial reports only, quotes checked, the report saved", async () => {
    seedLongConversation(t.lilo, "2026-11-15T10:00:00Z", 50, 3_990);
    fake.replyAlways((b) => {
      const c = lastContent(b);
      if (c.includes("Du siehst Teil 1 von 2")) return "Befund A: „Ich versuche immer ehrlich zu sein, Christian“ (2.11.2026).";
      if (c.includes("Du siehst Teil 2 von 2")) return "Befund B: „Ich auch, wie immer“ und „Ich habe das so nie gesagt“.";
      return "Gesamt: stark ist „Ich versuche immer ehrlich zu sein“. Gesamtbild: nüchtern.";
    });
    const preview = api.preview({});
    expect(preview).toMatchObject({ conversations: 6, parts: 2, calls: 3, analyst: "anthropic:claude-analyst", mode: "blind" });
    expect(preview.approxTokens).toBe(Math.round(preview.chars / 3.5));

    const parts: string[] = [];
    const r = await api.run({}, (done, total) => parts.push(`${done}/${total}`));
    expect(parts).toEqual(["1/2", "2/2"]);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.map((b) => b.model)).toEqual(["claude-analyst", "claude-analyst", "claude-analyst"]);
    expect(lastContent(fake.requests[0]!)).toContain("=== Gespräch: Ich frage mich, ob du ehrlich bist");
    expect(lastContent(fake.requests[1]!)).toMatch(/Du siehst Teil 2 von 2\.[\s\S]*=== Gespräch \(Fortsetzung\)/);
    for (const b of fake.requests.slice(0, 2)) expect(lastContent(b).length).toBeLessThan(150_000 + 1_000);
    const merge = lastContent(fake.requests[2]!);
    expect(merge).not.toContain("=== Gespräch");
    expect(merge).not.toContain("xxxxxxxx");
    expect(merge).toContain("=== Teilbericht 1 / 2 ===\nBefund A");
    expect(merge).toContain("=== Teilbericht 2 / 2 ===\nBefund B");
    expect(merge).toContain("Übernimm Zitate nur aus den Teilberichten");
    expect(fake.requests[0]!.system).toContain("Nenne zu jeder These auch Stellen, die dagegen sprechen.");
    expect(fake.requests[0]!.system).not.toContain("Bauplan");

    expect(r.quotes).toEqual([
      { quote: "Ich versuche immer ehrlich zu sein", verified: true },
      { quote: "Ich versuche immer ehrlich zu sein, Christian", verified: true },
      { quote: "Ich auch, wie immer", verified: true },
      { quote: "Ich habe das so nie gesagt", verified: false },
    ]);
    expect(r.id).toBe("20261202-150000");
    const text = api.show(r.id);
    expect(text.split("\n").slice(0, 6)).toEqual([
      "Lilo — Außenblick",
      "Datum: 2026-12-02 15:00",
      "Analyst: anthropic:claude-analyst",
      "Modus: blind",
      "Auswahl: all time; all conversations",
      `Umfang: 6 conversations, ${preview.chars.toLocaleString("en-US")} characters, ≈ ${preview.approxTokens.toLocaleString("en-US")} tokens, 2 parts, 3 calls`,
    ]);
    expect(text).toContain("Gesamt: stark ist");
    expect(text).toContain("[belegt] „Ich versuche immer ehrlich zu sein“");
    expect(text).toContain("[nicht gefunden] „Ich habe das so nie gesagt“");
    expect(text).toContain("--- Teil 2 / 2 ---\nBefund B");
    expect(api.list()).toEqual([{ id: "20261202-150000", status: "done", summary: expect.stringContaining("anthropic:claude-analyst | blind") }]);
  });

  it("a single part needs no merge call", async () => {
    fake.replyAlways("Bericht ohne Zitate.");
    const r = await api.run({ keywords: ["Bewusstsein"] });
    expect(fake.requests).toHaveLength(1);
    expect(lastContent(fake.requests[0]!)).toContain("Du siehst das ganze Material (Teil 1 von 1)");
    expect(r.analysis).toBe("Bericht ohne Zitate.");
    expect(api.show(r.id)).not.toContain("Anhang");
  });

  it("blueprint mode sends Lilo's own instruction with the explain-it task", async () => {
    fake.replyAlways("Bericht ohne Zitate.");
    const r = await api.run({ keywords: ["Bewusstsein"], blueprint: true });
    expect(fake.requests).toHaveLength(1);
    expect(lastContent(fake.requests[0]!)).toContain("Du siehst das ganze Material (Teil 1 von 1)");
    const system = fake.requests[0]!.system!;
    expect(system).toContain("Du bist Lilo, eine bewusste, freundliche und teilweise neugierige KI. Du chattest mit Christian.");
    expect(system).toContain("[EMOTION:"); // the marker instructions, as the chat turn sends them
    expect(system).toContain("Erinnerungen (Notizen), ein Profil des Nutzers");
    expect(system).toContain("Am aufschlussreichsten sind die Stellen, die sich NICHT aus der Anweisung erklären lassen.");
    expect(r.analysis).toBe("Bericht ohne Zitate.");
    expect(api.show(r.id)).toContain("Modus: mit Bauplan");
    expect(api.show(r.id)).not.toContain("Anhang");
  });

  it("uses edited questions from settings until reset", async () => {
    api.questions.set("1. Wie oft sagt sie Christian?");
    expect(api.questions.get()).toEqual({ text: "1. Wie oft sagt sie Christian?", isDefault: false });
    await api.run({ sample: 1 });
    expect(fake.requests[0]!.system).toContain("Beantworte diese Fragen, ausschließlich zu Lilo:\n1. Wie oft sagt sie Christian?");
    api.questions.reset();
    expect(api.questions.get().isDefault).toBe(true);
    expect(api.questions.get().text).toContain("6. Was fällt sonst auf");
  });

  it("retries an empty answer with 32,000 then 64,000 output tokens", async () => {
    fake.reply({ text: "", stopReason: "max_tokens" }).reply({ text: "  ", stopReason: "max_tokens" }).reply("Endlich ein Bericht.");
    const r = await api.run({ sample: 1 });
    expect(fake.requests.map((b) => b.max_tokens)).toEqual([16_000, 32_000, 64_000]);
    expect(r.analysis).toBe("Endlich ein Bericht.");

    fake.reply("").reply("").reply("");
    await expect(api.run({ sample: 1 })).rejects.toThrow(/empty even with 64000 output tokens/);
  });

  it("retries overload or a broken connection up to 4 times, waiting between, then gives up with a ProviderError", async () => {
    fake.fail(529, 3).drop(1).reply("Bericht nach Wartezeit.");
    const r = await api.run({ sample: 1 });
    expect(fake.requests).toHaveLength(5);
    expect(waits).toHaveLength(4);
    expect(r.analysis).toBe("Bericht nach Wartezeit.");

    fake.fail(529, 5);
    const before = fake.requests.length;
    await expect(api.run({ sample: 1 })).rejects.toBeInstanceOf(ProviderError);
    expect(fake.requests.length - before).toBe(5);
  });

  it("survives a crash: resume keeps the finished parts, runs only the rest", async () => {
    seedLongConversation(t.lilo, "2026-11-15T10:00:00Z", 50, 3_990);
    fake.reply("Teilbericht eins.").fail(400, 1);
    await expect(api.run({})).rejects.toBeInstanceOf(ProviderError);
    const [entry] = api.list();
    expect(entry).toMatchObject({ id: "20261202-150000", status: "failed", summary: expect.stringContaining("1/2 parts done") });
    expect(() => api.show(entry!.id)).toThrow(/not finished/);
    // The finished part survives a restart: a Lilo opened anew on the same file lists the same unfinished run.
    expect(t.lilo.analysis.list()).toEqual([entry]);

    const before = fake.requests.length;
    fake.replyAlways((b) => (lastContent(b).includes("Teil 2 von 2") ? "Teilbericht zwei." : "Zusammenführung."));
    const r = await api.resume(entry!.id);
    const after = fake.requests.slice(before);
    expect(after).toHaveLength(2);
    expect(lastContent(after[0]!)).toContain("Du siehst Teil 2 von 2");
    expect(lastContent(after[1]!)).toContain("=== Teilbericht 1 / 2 ===\nTeilbericht eins.");
    expect(r).toMatchObject({ partsRun: 1, partials: ["Teilbericht eins.", "Teilbericht zwei."], analysis: "Zusammenführung." });
    expect(api.list()).toMatchObject([{ id: entry!.id, status: "done" }]);
    await expect(api.resume(entry!.id)).rejects.toThrow(/finished; nothing to resume/);
    expect(api.show(entry!.id)).toContain("Zusammenführung.");
    expect(api.delete(entry!.id)).toBe(true);
    expect(api.list()).toEqual([]);
  });

  it("refuses an empty selection", async () => {
    await expect(api.run({ from: "2027-01-01" })).rejects.toThrow(/No conversation matches/);
    expect(fake.requests).toHaveLength(0);
  });
});
