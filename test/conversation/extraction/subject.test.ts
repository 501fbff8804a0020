import { describe, expect, it } from "vitest";
import { subjectOf } from "../../../core/conversation/extraction/subject.ts";
import { aboutTheSamePerson } from "../../../core/conversation/correction/candidates.ts";

// "About whom": table tests in German and English.
const names = { userName: "Christian", assistantName: "Lilo" };

describe("whom a fact is about", () => {
  it.each([
    ["Meine Schwester Anna hat einen Hund", "Anna"],
    ["Christians Schwester Anna hat einen Hund", "Anna"],
    ["Mein Bruder Tom wohnt in Köln", "Tom"],
    ["Anna hat einen Hund", "Anna"],
    ["Nein, ich habe keinen Hund", "user"],
    ["Christian hat keinen Hund", "user"],
    ["Ich trinke gern Tee", "user"],
    ["Du bist immer so geduldig", "lilo"],
    ["My sister Anna has a dog", "Anna"],
    ["Anna's dog is called Rex", "Anna"],
    ["No, I don't have a dog", "user"],
    ["My colleague Ben works at night", "Ben"],
  ])("%s → %s", (text, subject) => {
    expect(subjectOf(text, names)).toBe(subject);
  });

  it.each([
    ["Nein, ich habe keinen Hund", ["user"]],
    ["No, I don't have a dog", ["user"]],
    ["Anna hat keinen Hund mehr", ["Anna"]],
    ["My sister Anna gave her dog away", ["Anna"]],
  ])("the judge's candidates for %s never include another person's note", (message, kept) => {
    const candidates = [
      { key: "n1", subject: "Anna", text: "Christians Schwester Anna hat einen Hund" },
      { key: "n2", subject: "user", text: "Christian hat einen Hund" },
    ];
    expect(aboutTheSamePerson(candidates, message).map((c) => c.subject)).toEqual(kept);
  });

  it("a note without a recorded subject stays a candidate (older notes)", () => {
    const older: { key: string; text: string; subject?: string }[] = [{ key: "n3", text: "Hat einen Hund" }];
    expect(aboutTheSamePerson(older, "Nein, ich habe keinen Hund")).toHaveLength(1);
  });
});
