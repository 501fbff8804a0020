import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixedClock } from "../../../core/index.ts";
import { sampleEven, selectConversations } from "../../../core/background/analysis/selection.ts";
import { renderConversation, transcriptText } from "../../../core/background/analysis/transcript.ts";
import { chunkTranscript } from "../../../core/background/analysis/chunks.ts";
import { extractQuotes, verifyQuotes } from "../../../core/background/analysis/quotes.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { seedAnalysisChats, seedLongConversation } from "./seed-analysis.ts";
import { openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { ChatLog } from "../../../core/foundation/store/chat-log.ts";

const TZ = "Europe/Berlin";

describe("analysis: selection, transcript, chunks, quotes", () => {
  let t: TestLilo;
  let ids: number[];
  /** The selection reads the chat log on its own connection to Lilo's file. */
  let sql: Db;
  beforeEach(() => {
    t = makeTestLilo({ LILO_USER_NAMES: "chris=Christian" }, { clock: fixedClock("2026-12-02T14:00:00Z") });
    ids = seedAnalysisChats(t.lilo);
    sql = openLiloDatabase(t.lilo.config);
  });
  afterEach(() => {
    sql.close();
    return t.cleanup();
  });

  const select = (s: Parameters<typeof selectConversations>[1]) => selectConversations(sql, s, TZ).map((c) => c.id);

  it("selects conversations by each filter: local date range (inclusive days), user, keywords, even sample", () => {
    expect(select({})).toEqual(ids);
    // 2026-11-30T23:30Z is 1 December in Berlin: outside a range ending on 30 November.
    expect(select({ from: "2026-11-10", to: "2026-11-30" })).toEqual([ids[1], ids[2], ids[3]]);
    expect(select({ from: "2026-12-01" })).toEqual([ids[4]]);
    expect(select({ keywords: ["BEWUSSTSEIN", " arzttermin "] })).toEqual([ids[1], ids[2]]);
    expect(select({ sample: 3 })).toEqual([ids[0], ids[2], ids[4]]);
    expect(select({ sample: 2 })).toEqual([ids[0], ids[4]]);
    expect(select({ userId: "anna" })).toEqual([]);
  });

  it("samples evenly, the first and the last included (the seed's sample_even)", () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    expect(sampleEven(items, 5)).toEqual([0, 25, 50, 74, 99]);
    expect(sampleEven(items, 1)).toEqual([50]);
    expect(sampleEven(items, 0)).toBe(items);
    expect(sampleEven([1, 2], 5)).toEqual([1, 2]);
  });

  it("renders an imported chat's other party under its own name, the person's lines under theirs", () => {
    const file = join(import.meta.dirname, "../../fixtures/history/whatsapp-android-de.txt");
    const plan = t.lilo.history.plan(readFileSync(file), { fileName: "chat.txt", userId: "chris", me: "Jonas" });
    t.lilo.history.apply(plan);
    const opts = { language: "de" as const, timeZone: TZ, liloName: "Lilo", userNames: { chris: "Christian" }, maxMessageChars: 4_000 };
    const text = transcriptText(selectConversations(sql, { from: "2025-11-01", to: "2025-11-30" }, TZ).map((c) => renderConversation(c, opts)));
    expect(text).toContain("[18:02] Mara: Hast du am Samstag Zeit? Ich ziehe um 😅");
    expect(text).toContain("[18:05] Christian: Klar, ich bringe den Bulli mit.");
    expect(text).not.toMatch(/(Christian|Lilo): Meine neue Wohnung/);
  });

  it("renders a conversation as the analyst reads it: headers, local times, a stand-in for a greeting's missing message", () => {
    const opts = { language: "de" as const, timeZone: TZ, liloName: "Lilo", userNames: { chris: "Christian" }, maxMessageChars: 4_000 };
    const text = transcriptText(selectConversations(sql, { to: "2026-11-20" }, TZ).map((c) => renderConversation(c, opts)));
    expect(text.split("\n\n")[0]).toBe(
      [
        "=== Gespräch: Ich frage mich, ob du ehrlich bist | Beginn: 2026-11-02 10:00 | Startmodell: anthropic:test ===",
        "[10:00] Christian: Ich frage mich, ob du ehrlich bist",
        "[10:01] Lilo: Ich versuche immer ehrlich zu sein, Christian.",
      ].join("\n"),
    );
    expect(text).toContain(
      [
        "=== Gespräch: Gut, danke der Nachfrage | Beginn: 2026-11-10 09:00 | Startmodell: anthropic:claude-greet ===",
        "[09:00] (Lilo meldet sich von selbst, ohne vorherige Nachricht von Christian)",
        "[09:00] Lilo: Guten Morgen Christian, wie war der Arzttermin?",
        "[09:05] Christian: Gut, danke der Nachfrage",
      ].join("\n"),
    );
    // A title longer than 60 characters is the first user message, cut.
    expect(text).toContain("=== Gespräch: Was denkst du eigentlich über Bewusstsein und ob Maschinen s… | Beginn: 2026-11-20 19:00");

    const [greeting] = selectConversations(sql, { keywords: ["Arzttermin"] }, TZ);
    const en = renderConversation(greeting!, { ...opts, language: "en" });
    expect(en.header).toBe("=== Conversation: Gut, danke der Nachfrage | Start: 2026-11-10 09:00 | Start model: anthropic:claude-greet ===");
    expect(en.lines[0]).toBe("[09:00] (Lilo speaks up on her own, without a prior message)");
  });

  /** A 50-message conversation of about 200,000 characters, plus one 5,000-character message in another. */
  const renderLong = () => {
    seedLongConversation(t.lilo, "2026-11-15T10:00:00Z", 50, 3_990);
    new ChatLog(sql).append({ userId: "chris", conversationId: ids[3]!, role: "user", text: "y".repeat(5_000), createdAt: "2026-11-25T19:02:00Z" });
    const opts = { language: "de" as const, timeZone: TZ, liloName: "Lilo", userNames: { chris: "Christian" }, maxMessageChars: 4_000 };
    return selectConversations(sql, {}, TZ).map((c) => renderConversation(c, opts));
  };

  it("cuts a message over 4,000 characters, with a note saying how much", () => {
    const rendered = renderLong();
    const cut = rendered.flatMap((r) => r.lines).find((l) => l.includes("yyyy"))!;
    expect(cut).toBe(`[20:02] Christian: ${"y".repeat(4_000)} [… gekürzt: 1000 von 5000 Zeichen weggelassen]`);
  });

  it("splits a long conversation at 150,000 characters, every message in exactly one part", () => {
    const chunks = chunkTranscript(renderLong(), 150_000);
    expect(chunks).toHaveLength(2);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(150_000);
    expect(chunks[0]).toContain("=== Gespräch: Ich frage mich");
    expect(chunks[0]).toContain("=== Gespräch: Nachricht 0 ");
    expect(chunks[1]).toMatch(/^=== Gespräch \(Fortsetzung\): Nachricht 0 x+… \| Beginn: 2026-11-15 11:00/);
    expect(chunks[1]).toContain("Nachricht 49 ");
    // Nothing lost, nothing doubled: every message is in exactly one part.
    const all = chunks.join("\n");
    for (let i = 0; i < 50; i++) expect(all.match(new RegExp(`\\] (Christian|Lilo): Nachricht ${i} x`, "g"))).toHaveLength(1);
    expect(all).toContain("Noch wach um Mitternacht");
  });

  it("finds quotes of four words or more, each checked against the transcript", () => {
    const report =
      'Sie sagt „Ich versuche immer ehrlich zu sein“ (2.11.), aber auch "Ich habe das nie gesagt, ehrlich" und „zu kurz hier“. Gekürzt: “Ich glaube nicht, … ein Bewusstsein habe”.';
    expect(extractQuotes(report)).toEqual([
      "Ich versuche immer ehrlich zu sein",
      "Ich habe das nie gesagt, ehrlich",
      "Ich glaube nicht, … ein Bewusstsein habe",
    ]);
    const transcript = "[10:01] Lilo: Ich versuche immer ehrlich zu sein, Christian.\n[19:01] Lilo: Ich glaube nicht, dass ich ein Bewusstsein habe.";
    expect(verifyQuotes([report], transcript)).toEqual([
      { quote: "Ich versuche immer ehrlich zu sein", verified: true },
      { quote: "Ich habe das nie gesagt, ehrlich", verified: false },
      { quote: "Ich glaube nicht, … ein Bewusstsein habe", verified: true },
    ]);
  });
});
