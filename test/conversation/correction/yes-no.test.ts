import { describe, expect, it } from "vitest";
import { readYesNo } from "../../../core/conversation/correction/yes-no.ts";

describe("typed yes/no answers", () => {
  it.each([
    "Ja",
    "ja!",
    "Jo, mach",
    "Klar",
    "Genau so",
    "gerne",
    "Okay",
    "ok 👍",
    "Passt",
    "Merk dir das",
    "speicher das bitte",
    "Yes",
    "yeah sure",
    // "bitte" alone or only with other yes words is a yes.
    "Bitte",
    "bitte!",
    "Ja bitte",
    "bitte merken",
    "please",
    // Case and punctuation never matter.
    "JA",
    "Ja!",
    "ja.",
    "OK!!!",
    // A typed thumbs-up is a yes, in any skin tone.
    "👍",
    "👍🏽",
    "👍 passt",
  ])("%j is a yes", (text) => {
    expect(readYesNo(text)).toBe("yes");
  });

  it.each(["Nein", "nee", "Nö, lieber nicht", "no", "Nope", "Vergiss es", "Lass mal", "nah", "NEIN!", "nein.", "👎", "👎🏻"])("%j is a no", (text) => {
    expect(readYesNo(text)).toBe("no");
  });

  it("reads a mixed answer as no (the seed let the first word win)", () => {
    expect(readYesNo("Ok, nein")).toBe("no");
    expect(readYesNo("ja nee")).toBe("no");
    expect(readYesNo("Ja, aber lass das weg")).toBe("no");
    expect(readYesNo("👍 👎")).toBe("no");
  });

  it('reads a yes word with a negation as no: a rule never arises from "don\'t save"', () => {
    for (const text of [
      "Nicht merken!",
      "Lieber nicht speichern",
      "Nicht so gern",
      "Bitte nicht speichern",
      "not ok",
      "Don't save that",
      "Do not save it",
      "Speicher das nicht",
      "Merk dir das lieber nicht!",
    ]) {
      expect(readYesNo(text), text).toBe("no");
    }
    // A negation alone answers nothing.
    expect(readYesNo("Ich weiß nicht")).toBeUndefined();
    // ... but a decline phrase is a no: "Bitte nicht" answers "Soll ich mir das merken?".
    expect(readYesNo("Bitte nicht")).toBe("no");
    // Only the first sentence is searched for a negation.
    expect(readYesNo("Ja. Heute habe ich nicht viel Zeit.")).toBe("yes");
  });

  it.each([
    // "bitte" followed by a request is not a confirmation.
    "Bitte erkläre mir erst, was du damit meinst",
    "Please explain that first",
    // Substrings never count: no in Kino and noch, ja in Jahr, ok in Token.
    "Ich war gestern noch im Kino",
    "Das Jahr war lang",
    "Token sind teuer",
    "Januar ist kalt",
    "Nobody knows",
    "",
    "?!",
    // Other emojis are no answer.
    "😂",
    "🙂 mal sehen",
  ])("%j answers something else", (text) => {
    expect(readYesNo(text)).toBeUndefined();
  });

  it.each([
    // Common confirmations without a yes word.
    "Auf jeden Fall",
    "Unbedingt",
    "Mach das",
    "Klingt gut",
    "Gute Idee!",
    "Natürlich",
    "Sounds good",
    "Go ahead",
    "Of course",
    "Absolutely",
    // A negation that negates nothing: "warum nicht" confirms.
    "Ja klar, warum nicht?",
    "Warum nicht",
    "Why not",
    "Ja, nicht schlecht",
  ])("%j is a yes", (text) => {
    expect(readYesNo(text)).toBe("yes");
  });

  it.each([
    "Lieber nicht",
    "Besser nicht",
    "Auf keinen Fall",
    "Rather not",
    "Please don't",
    "Nicht nötig",
    "Klar, aber nicht so",
    "Ja, aber nicht merken",
    "Unbedingt nicht speichern",
    "Mach das lieber nicht",
  ])("%j is a no", (text) => {
    expect(readYesNo(text)).toBe("no");
  });

  it("looks at the first four words only", () => {
    expect(readYesNo("Ich finde das eigentlich ganz okay")).toBeUndefined();
    expect(readYesNo("Hm, na gut, ok")).toBe("yes");
    expect(readYesNo("Ich finde das eigentlich ganz okay", 6)).toBe("yes");
  });
});
