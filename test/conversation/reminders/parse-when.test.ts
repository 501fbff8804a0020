import { describe, expect, it } from "vitest";
import { parseWhen, type ParsedWhen } from "../../../core/conversation/reminders/parse-when.ts";

/** Friday 5 December 2025, 11:00 in Berlin. */
const NOW = new Date("2025-12-05T10:00:00Z");
const berlin = (words: string, language: "de" | "en" = "de", now = NOW) => parseWhen(words, { now, timeZone: "Europe/Berlin", language });
const tokyo = (words: string, language: "de" | "en" = "en") => parseWhen(words, { now: NOW, timeZone: "Asia/Tokyo", language });
const ok = (p: ParsedWhen) => (p.ok ? { due: p.dueAt.toISOString(), rule: p.recurrence, text: p.text } : p.reason);

describe("reminders: the time read from the person's words", () => {
  it.each([
    ["in 20 Minuten Tee", "2025-12-05T10:20:00.000Z", "Tee"],
    ["in 1 Minute Tee aufsetzen", "2025-12-05T10:01:00.000Z", "Tee aufsetzen"],
    ["morgen um 9 Tabletten", "2025-12-06T08:00:00.000Z", "Tabletten"],
    ["am Freitag 18:30 Müll rausbringen", "2025-12-05T17:30:00.000Z", "Müll rausbringen"],
    ["übermorgen früh Arzt anrufen", "2025-12-07T07:00:00.000Z", "Arzt anrufen"],
    ["nächsten Freitag 9 Uhr an den Klempner", "2025-12-12T08:00:00.000Z", "den Klempner"],
  ])("German: %s", (words, due, text) => {
    expect(ok(berlin(words))).toEqual({ due, rule: undefined, text });
  });

  it.each([
    ["tomorrow at 9am call mum", "2025-12-06T08:00:00.000Z", "call mum"],
    ["tomorrow 9:00 call mum", "2025-12-06T08:00:00.000Z", "call mum"],
    ["in 2 hours stretch", "2025-12-05T12:00:00.000Z", "stretch"],
    ["next Friday at 6pm plumber", "2025-12-12T17:00:00.000Z", "plumber"],
  ])("English: %s", (words, due, text) => {
    expect(ok(berlin(words, "en"))).toEqual({ due, rule: undefined, text });
  });

  it("recurring phrases in both languages carry their rule and ring first at its next occurrence", () => {
    expect(ok(berlin("jeden Montag um 8 Mülltonnen raus"))).toEqual({
      due: "2025-12-08T07:00:00.000Z",
      rule: { every: "week", days: [1], at: "08:00" },
      text: "Mülltonnen raus",
    });
    expect(ok(berlin("every weekday at 7:30 run", "en"))).toEqual({ due: "2025-12-08T06:30:00.000Z", rule: { every: "weekday", at: "07:30" }, text: "run" });
    expect(ok(berlin("täglich um 20 Uhr Tabletten"))).toEqual({ due: "2025-12-05T19:00:00.000Z", rule: { every: "day", at: "20:00" }, text: "Tabletten" });
    expect(ok(berlin("jeden Monat am 31. um 9:00 Miete"))).toEqual({
      due: "2025-12-31T08:00:00.000Z",
      rule: { every: "month", day: 31, at: "09:00" },
      text: "Miete",
    });
    expect(ok(berlin("alle 2 Stunden trinken"))).toEqual({ due: "2025-12-05T12:00:00.000Z", rule: { every: "hours", n: 2 }, text: "trinken" });
    expect(ok(berlin("montags und donnerstags um 18:30 Sport"))).toMatchObject({ rule: { every: "week", days: [1, 4], at: "18:30" }, text: "Sport" });
  });

  it("the same words in a zone without daylight saving resolve to that zone's clock", () => {
    expect(ok(tokyo("tomorrow at 9am call mum"))).toEqual({ due: "2025-12-06T00:00:00.000Z", rule: undefined, text: "call mum" });
  });

  it("a named day after the DST change keeps its wall time: 9:00 on 30 March is 07:00 UTC, though now is winter time", () => {
    expect(ok(berlin("am 30.3.2026 um 9 Uhr Steuer", "de"))).toMatchObject({ due: "2026-03-30T07:00:00.000Z", text: "Steuer" });
  });

  it.each([
    ["gestern Tee", "past"],
    ["vor einer Stunde Tee", "past"],
    ["heute um 9 Tee", "past"],
    ["nächsten Freitag Klempner", "no-time"],
    ["jeden Montag Müll", "no-time"],
    ["am 31.2. Miete", "impossible-date"],
    ["am 30. Februar Miete", "impossible-date"],
    ["am 3.5.9999 um 10 Tee", "too-far"],
    ["irgendwann mal Tee", "unclear"],
    ["um 25 Uhr Tee", "unclear"],
  ])("refused with its reason: %s", (words, reason) => {
    expect(ok(berlin(words))).toBe(reason);
  });

  it("an unclear English time is refused the same way", () => {
    expect(ok(berlin("next Friday plumber", "en"))).toBe("no-time");
    expect(ok(berlin("yesterday tea", "en"))).toBe("past");
  });
});
