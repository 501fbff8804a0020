import { describe, expect, it } from "vitest";
import { dayPart, pauseWords, relativeDay } from "../../../core/background/greeting/pause.ts";
import { returnContext } from "../../../core/background/greeting/context.ts";
import type { ChatLogMessage } from "../../../core/foundation/store/chat-log.ts";

const TZ = "Europe/Berlin";
const NOW = new Date("2026-12-02T08:00:00Z"); // Wednesday 09:00 in Berlin
const pause = (iso: string, lang: "de" | "en" = "de") => pauseWords(new Date(iso), NOW, TZ, lang);

describe("time in words for greetings", () => {
  it("puts the pause in words, by local calendar days", () => {
    expect(pause("2026-12-02T07:20:00Z")).toBe("40 Minuten");
    expect(pause("2026-12-02T05:00:00Z")).toBe("3 Stunden (seit heute Morgen)");
    // 22:30 local yesterday: fewer than 24 hours, still "gestern Abend".
    expect(pause("2026-12-01T21:30:00Z")).toBe("seit gestern Abend (10 Stunden)");
    expect(pause("2026-11-30T19:30:00Z")).toBe("seit vorgestern Abend (2 Tage)");
    expect(pause("2026-11-29T19:30:00Z")).toBe("3 Tage (seit Sonntagabend)");
    expect(pause("2026-11-12T10:00:00Z")).toBe("2 Wochen (seit Donnerstag, 12.11.)");
    expect(pause("2026-09-01T10:00:00Z")).toBe("etwa 3 Monate (seit Dienstag, 1.9.)");
    expect(pause("2026-12-01T21:30:00Z", "en")).toBe("since yesterday evening (10 hours)");
    expect(pause("2026-11-29T19:30:00Z", "en")).toBe("3 days (since Sunday evening)");
  });

  it("crosses midnight in the local time zone, not in UTC", () => {
    // 23:30 UTC on 1 Dec is 00:30 on 2 Dec in Berlin: "today", at night.
    expect(pause("2026-12-01T23:30:00Z")).toBe("8 Stunden (seit heute Nacht)");
    expect(dayPart(19, "de")).toBe("Abend");
    expect(dayPart(4, "en")).toBe("night");
  });

  it("names days relative to today", () => {
    expect(relativeDay("2026-12-02", "2026-12-02", "de")).toBe("heute (Mittwoch, 2.12.)");
    expect(relativeDay("2026-12-01", "2026-12-02", "de")).toBe("gestern (Dienstag, 1.12.)");
    expect(relativeDay("2026-11-30", "2026-12-02", "de")).toBe("vorgestern (Montag, 30.11.)");
    expect(relativeDay("2026-11-28", "2026-12-02", "de")).toBe("Samstag, 28.11.");
    expect(relativeDay("2026-11-02", "2026-12-02", "en")).toBe("Monday, 2 Nov 2026");
  });

  it("builds the context: pause, today's date, the messages with their days, what 'tomorrow' meant", () => {
    const msg = (id: number, role: "user" | "assistant", text: string, createdAt: string): ChatLogMessage => ({
      id,
      userId: "chris",
      conversationId: 1,
      role,
      text,
      model: null,
      mood: null,
      proactive: false,
      createdAt,
    });
    const c = returnContext(
      [
        msg(1, "user", "Morgen früh habe ich den Zahnarzttermin.", "2026-11-30T19:30:00Z"),
        msg(2, "assistant", "Viel Glück morgen!", "2026-11-30T19:31:00Z"),
        msg(3, "user", "Gute Nacht", "2026-12-01T21:00:00Z"),
      ],
      NOW,
      { timeZone: TZ, language: "de", userName: "Christian", selfLabel: "Du" },
    )!;
    expect(c.pause).toBe("seit gestern Abend (11 Stunden)");
    expect(c.today).toBe("Mittwoch, 2. Dezember 2026");
    expect(c.time).toBe("09:00");
    expect(c.lastAt).toBe("gestern (Dienstag, 1.12.), 22:00");
    expect(c.lines).toEqual([
      "[vorgestern (Montag, 30.11.), 20:30] Christian: Morgen früh habe ich den Zahnarzttermin.",
      "[vorgestern (Montag, 30.11.), 20:31] Du: Viel Glück morgen!",
      "[gestern (Dienstag, 1.12.), 22:00] Christian: Gute Nacht",
    ]);
    expect(c.tomorrow).toEqual([
      { said: "vorgestern (Montag, 30.11.)", meant: "gestern (Dienstag, 1.12.)", past: true },
      { said: "gestern (Dienstag, 1.12.)", meant: "heute (Mittwoch, 2.12.)", past: false },
    ]);
    expect(returnContext([], NOW, { timeZone: TZ, language: "de", userName: "C", selfLabel: "Du" })).toBeUndefined();
  });
});
