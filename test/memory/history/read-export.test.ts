import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync, strToU8 } from "fflate";
import { readExport } from "../../../core/memory/history/read-export.ts";
import { planHistory } from "../../../core/memory/history/history-plan.ts";
import type { ChatExport } from "../../../core/memory/history/history-types.ts";

const FIXTURES = join(import.meta.dirname, "../../fixtures/history");
const NOW = new Date("2026-12-05T12:00:00Z");
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const read = (bytes: Uint8Array, fileName: string, timeZone = "Europe/Berlin") => readExport(bytes, { fileName, timeZone, now: NOW });
const texts = (x: ChatExport) => x.chats.flatMap((c) => c.messages.map((m) => `${m.speaker}: ${m.text}`));
const plan = (x: ChatExport, me?: string) => planHistory(x, { fileName: "f", fileHash: "h", me, knownNames: [], pauseMinutes: 30 });

describe("reading chat exports", () => {
  it("reads an Android WhatsApp export in German: multi-line messages kept, system, media and deleted lines left out", () => {
    const x = read(fixture("whatsapp-android-de.txt"), "WhatsApp-Chat mit Mara.txt");
    expect(x.format).toBe("whatsapp");
    expect(texts(x)).toEqual([
      "Mara: Hast du am Samstag Zeit? Ich ziehe um 😅",
      "Jonas: Klar, ich bringe den Bulli mit.\nUnd Kaffee.",
      "Mara: Meine neue Wohnung ist in der Gartenstraße 12, dritter Stock ohne Aufzug.",
      "Jonas: Ich habe übrigens den Kletterkurs im Dezember gebucht.",
      "Mara: Super! Dann sehen wir uns an der Wand.",
    ]);
    expect(x.skipped).toBe(3);
    expect(x.chats[0]!.title).toBe("WhatsApp-Chat mit Mara");
  });

  it("places WhatsApp's wall-clock times in the person's time zone", () => {
    const x = read(fixture("whatsapp-android-de.txt"), "chat.txt");
    // 18:02 in Berlin in November (CET, UTC+1) is 17:02 UTC.
    expect(x.chats[0]!.messages[0]!.at.toISOString()).toBe("2025-11-03T17:02:00.000Z");
  });

  it("reads an iOS WhatsApp export in English with 12-hour, month-first dates, its encryption notice and media left out", () => {
    const x = read(fixture("whatsapp-ios-en.txt"), "_chat.txt", "UTC");
    expect(texts(x)).toEqual([
      "Sam: Are you coming to the concert on Friday?",
      "Alex: Yes! I finally got the tickets for row 7.",
      "Alex: My sister Priya is coming too,\nshe loves the band.",
      "Sam: See you tonight!",
    ]);
    expect(x.chats[0]!.messages[1]!.at.toISOString()).toBe("2025-11-03T18:04:40.000Z");
  });

  it("reads dotted dates day first, even in a chat on the same day of three months", () => {
    const text = ["05.10.26, 09:15 - Mara: Wie war's?", "05.11.26, 09:15 - Jonas: Gut!", "05.12.26, 09:15 - Mara: Und heute?"].join("\n");
    const x = read(strToU8(text), "WhatsApp-Chat mit Mara.txt");
    expect(x.chats[0]!.messages.map((m) => m.at.toISOString().slice(0, 10))).toEqual(["2026-10-05", "2026-11-05", "2026-12-05"]);
  });

  it("reads the .zip the phone shares, finding _chat.txt beside the media", () => {
    const zip = zipSync({ "_chat.txt": new Uint8Array(fixture("whatsapp-ios-en.txt")), "00000012-PHOTO.jpg": strToU8("jpeg") });
    const x = read(zip, "WhatsApp Chat - Sam.zip", "UTC");
    expect(x.format).toBe("whatsapp");
    expect(texts(x)).toHaveLength(4);
  });

  it("reads a Telegram chat export: entity lists joined, service and photo-only messages left out", () => {
    const x = read(fixture("telegram-result.json"), "result.json");
    expect(x.format).toBe("telegram");
    expect(texts(x)).toEqual([
      "Lena: Wie war das Vorstellungsgespräch?",
      "Tom: Gut! Ich fange im Januar bei der Stadtbibliothek an.",
      "Lena: Glückwunsch! Meine Katze Minka schickt auch Grüße.",
    ]);
    expect(x.skipped).toBe(2);
  });

  it("reads a whole-account Telegram export: personal chats only, and the account holder as the person", () => {
    const x = read(fixture("telegram-account.json"), "result.json");
    expect(x.chats.map((c) => c.title)).toEqual(["Lena"]);
    expect(x.owner).toBe("Tom Berger");
    expect(plan(x).me).toBe("Tom Berger");
  });

  it("follows ChatGPT's tree along the current branch only, leaving system, tool and regenerated nodes out", () => {
    const x = read(fixture("chatgpt-conversations.json"), "conversations.json");
    expect(x.format).toBe("chatgpt");
    expect(texts(x)).toEqual([
      "You: I am running the Berlin marathon next September and my left knee hurts after 20 km.",
      "ChatGPT: Knee pain after long runs is common; consider strength work for the hips.",
      "You: Thanks, I will ask my physio Dr. Okafor.",
    ]);
  });

  it("tells Claude's conversations.json from ChatGPT's by its content", () => {
    const x = read(fixture("claude-conversations.json"), "conversations.json");
    expect(x.format).toBe("claude");
    expect(texts(x)).toEqual([
      "You: My sourdough starter is called Brotzilla and it smells like acetone.",
      "Claude: That smell means it is hungry: feed it twice a day.",
    ]);
  });
});

describe("who is who", () => {
  it("takes the other party of a chat as about them, never the person's own words", () => {
    const p = plan(read(fixture("whatsapp-android-de.txt"), "chat.txt"), "Jonas");
    expect(p.speakers).toEqual([
      { name: "Mara", messages: 3, as: "other" },
      { name: "Jonas", messages: 2, as: "me" },
    ]);
    const mara = p.planned.filter((r) => r.speaker === "Mara");
    expect(mara.every((r) => r.role === "user")).toBe(true);
    expect(p.planned.filter((r) => r.speaker === null).map((r) => r.text)).toEqual([
      "Klar, ich bringe den Bulli mit.\nUnd Kaffee.",
      "Ich habe übrigens den Kletterkurs im Dezember gebucht.",
    ]);
  });

  it("keeps an assistant's answers under its own name, never Lilo's", () => {
    const p = plan(read(fixture("claude-conversations.json"), "conversations.json"));
    expect(p.me).toBe("You");
    expect(p.planned.map((r) => [r.role, r.speaker])).toEqual([
      ["user", null],
      ["assistant", "Claude"],
    ]);
  });

  it("writes no rows while it cannot tell which of two people is the person", () => {
    const p = plan(read(fixture("whatsapp-android-de.txt"), "chat.txt"));
    expect(p.me).toBeUndefined();
    expect(p.planned).toEqual([]);
  });

  it("refuses a --me that names nobody in the export, listing who is in it", () => {
    expect(() => plan(read(fixture("whatsapp-android-de.txt"), "chat.txt"), "Anna")).toThrow(/--me "Anna" is none of the export's speakers \(Mara, Jonas\)/);
  });

  it("starts a new conversation after a pause, as live chat does", () => {
    const p = plan(read(fixture("whatsapp-android-de.txt"), "chat.txt"), "Jonas");
    expect(new Set(p.planned.map((r) => r.conversation)).size).toBe(2);
  });
});

describe("files refused whole", () => {
  const refused =
    (bytes: Uint8Array | string, name = "x.json") =>
    () =>
      read(typeof bytes === "string" ? strToU8(bytes) : bytes, name);

  it("names the line of a truncated JSON export", () => {
    const text = fixture("telegram-result.json").toString("utf8");
    expect(refused(text.slice(0, 400))).toThrow(/broken JSON at line \d+/);
  });

  it("names the field that is wrong", () => {
    expect(refused(JSON.stringify([{ title: "t", mapping: { a: { message: { author: {}, content: { content_type: "text" } } } } }]))).toThrow(
      /field 0\.mapping\.a\.message\.author\.role/,
    );
  });

  it("refuses a file of no known format", () => {
    expect(refused("Dear diary, today I went out.", "notes.txt")).toThrow(/not a chat export Lilo knows/);
  });

  it("refuses binary that is not UTF-8", () => {
    expect(refused(new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x00]), "garbled.txt")).toThrow(/not UTF-8 text/);
  });

  it("refuses a message longer than the chat's limit", () => {
    expect(refused(`03.11.25, 18:02 - Mara: ${"x".repeat(20_000)}`, "chat.txt")).toThrow(/message 1 has 20000 characters/);
  });

  it("refuses a date in the future or before 1990", () => {
    expect(refused(JSON.stringify([{ name: "c", chat_messages: [{ sender: "human", text: "hi", created_at: "9999-01-01T00:00:00Z" }] }]))).toThrow(
      /outside 1990 to today/,
    );
  });

  it("refuses a --format the content contradicts", () => {
    expect(() => readExport(fixture("claude-conversations.json"), { fileName: "conversations.json", format: "chatgpt", timeZone: "UTC", now: NOW })).toThrow(
      /--format chatgpt, but the content is a claude export/,
    );
  });
});
