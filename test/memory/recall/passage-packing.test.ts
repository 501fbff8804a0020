import { describe, expect, it } from "vitest";
import { packPassages, passageCost, sheetMessageIds, HIT_MAX_CHARS } from "../../../core/memory/recall/passage-packing.ts";
import { trimAround } from "../../../core/memory/recall/trim-around.ts";
import type { PassageMessage, RecallPassage } from "../../../core/memory/recall/search.ts";

/** A conversation of `n` turns, one minute apart; message ids 1..n. */
function log(texts: string[]): PassageMessage[] {
  return texts.map((text, i) => ({
    id: i + 1,
    role: i % 2 ? "assistant" : "user",
    text,
    createdAt: new Date(Date.UTC(2026, 4, 3, 10, i)).toISOString(),
    localTime: `2026-05-03 10:${String(i).padStart(2, "0")}`,
  }));
}

/** The candidate the chat search gives for message `id` of `msgs`: it with its whole neighbours. */
function candidate(msgs: PassageMessage[], id: number, score = 1): RecallPassage & { score: number } {
  const i = msgs.findIndex((m) => m.id === id);
  return {
    conversationId: 1,
    ...(i > 0 ? { before: msgs[i - 1]! } : {}),
    hit: msgs[i]!,
    ...(i < msgs.length - 1 ? { after: msgs[i + 1]! } : {}),
    aboutRemembering: false,
    score,
  };
}

/** A seeded generator, so the randomized checks are the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["kino", "paint", "lake", "coffee", "berlin", "sister", "concert", "garden", "yes", "really", "the", "and", "we", "went"];

describe("packing chat-log passages onto the sheet", () => {
  /** Sixty packings of random candidates from random logs, with the budget each had. */
  function randomPackings(): { packed: ReturnType<typeof packPassages>; maxChars: number }[] {
    const rand = rng(7);
    return Array.from({ length: 60 }, () => {
      const msgs = log(
        Array.from({ length: 40 }, () =>
          Array.from({ length: 1 + Math.floor(rand() * (rand() < 0.2 ? 250 : 25)) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" "),
        ),
      );
      const ids = Array.from({ length: 25 }, () => 1 + Math.floor(rand() * msgs.length));
      const maxChars = Math.floor(rand() * 3000);
      const packed = packPassages(
        ids.map((id, i) => candidate(msgs, id, 1 / (i + 1))),
        { maxChars, maxPassages: 1 + Math.floor(rand() * 12), stems: ["kino", "paint", "lake"] },
      );
      return { packed, maxChars };
    });
  }

  it("never exceeds its budget, whatever the candidates (randomized)", () => {
    for (const { packed, maxChars } of randomPackings()) expect(packed.kept.reduce((n, p) => n + passageCost(p), 0)).toBeLessThanOrEqual(maxChars);
  });

  it("never shows a turn twice, whatever the candidates (randomized)", () => {
    for (const { packed } of randomPackings()) {
      const shown = sheetMessageIds(packed.kept);
      expect(new Set(shown).size).toBe(shown.length);
    }
  });

  it("makes each passage one unbroken run of turns, oldest first, holding a hit (randomized)", () => {
    for (const { packed } of randomPackings()) {
      for (const p of packed.kept) {
        p.messages.forEach((m, i) => i && expect(m.id).toBe(p.messages[i - 1]!.id + 1));
        expect(p.messages.some((m) => m.hit)).toBe(true);
      }
    }
  });

  /** Twenty hits on the lake, each a long turn between two turns of other talk. */
  function lakeHits() {
    const msgs = log(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0
          ? `we went to the lake number ${i} and swam for a long time there, it was lovely and warm`
          : `other talk ${i} about the weather and the week`,
      ),
    );
    return msgs.filter((m) => m.text.includes("lake")).map((m, i) => candidate(msgs, m.id, 1 / (i + 1)));
  }

  it("fits more passages into the same budget than hit ± one turn", () => {
    const hits = lakeHits();
    const small = packPassages(hits, { maxChars: 800, maxPassages: 50, stems: ["lake"] });
    const hitAndNeighbours = hits
      .slice(0, small.kept.length)
      .reduce((n, c) => n + [c.before, c.hit, c.after].reduce((k, m) => k + (m ? m.text.length + 32 : 0), 2), 0);
    // The neighbours add no search word and the hits are not short answers: they stay off.
    expect(small.kept.every((p) => p.messages.every((m) => m.hit))).toBe(true);
    expect(hitAndNeighbours).toBeGreaterThan(800);
    expect(small.left.length).toBe(hits.length - small.kept.length);
  });

  it("fits more passages when the budget grows", () => {
    const hits = lakeHits();
    const small = packPassages(hits, { maxChars: 800, maxPassages: 50, stems: ["lake"] });
    const large = packPassages(hits, { maxChars: 2400, maxPassages: 50, stems: ["lake"] });
    expect(large.kept.length).toBeGreaterThan(small.kept.length);
  });

  it("keeps a neighbour only where it adds something: the question a short answer replies to, a turn with the missing word", () => {
    const msgs = log([
      "how was the concert in Berlin last week?",
      "yes, great!",
      "we should go to the garden soon",
      "my sister said the old kino downtown closed for good last month, after ninety years",
      "what a pity",
      "unrelated words here about coffee beans and the roasting of them",
    ]);
    const packed = packPassages([candidate(msgs, 2), candidate(msgs, 4)], { maxChars: 5000, maxPassages: 5, stems: ["concert", "berlin", "kino"] });
    const texts = packed.kept.map((p) => p.messages.map((m) => `${m.hit ? "»" : " "}${m.text}`));
    // The short answer brings its question; the kino hit stands alone (its neighbours add no word and it is no short answer).
    expect(texts).toEqual([
      [" how was the concert in Berlin last week?", "»yes, great!"],
      ["»my sister said the old kino downtown closed for good last month, after ninety years"],
    ]);
  });

  it("merges passages that touch into one run, where shown context becomes a hit at no cost", () => {
    const msgs = log(["we talked about the lake", "the lake was cold", "and the lake was deep", "then lunch"]);
    const packed = packPassages([candidate(msgs, 2, 3), candidate(msgs, 3, 2), candidate(msgs, 1, 1)], { maxChars: 5000, maxPassages: 1, stems: ["lake"] });
    expect(packed.kept).toHaveLength(1);
    expect(packed.kept[0]!.messages.map((m) => [m.id, m.hit])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(packed.left).toEqual([]);
  });

  it("cuts a long turn around the words that matched, on word boundaries", () => {
    const long = `${"filler words about nothing in particular ".repeat(40)}then we finally reached the lake and swam ${"more filler text follows here ".repeat(40)}`;
    const cut = trimAround(long, ["lake"], 200);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut).toContain("lake");
    expect(cut.startsWith("… ")).toBe(true);
    expect(cut.endsWith(" …")).toBe(true);
    const packed = packPassages([candidate(log(["hi", long, "ok"]), 2)], { maxChars: 5000, maxPassages: 3, stems: ["lake"] });
    expect(packed.kept[0]!.messages.find((m) => m.hit)!.text.length).toBeLessThanOrEqual(HIT_MAX_CHARS);
    expect(trimAround("short text", ["lake"], 200)).toBe("short text");
  });
});
