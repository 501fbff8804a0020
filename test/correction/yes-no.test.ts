import { describe, expect, it } from "vitest";
import { readYesNo } from "../../core/correction/yes-no.ts";

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
  ])("%j is a yes", (text) => {
    expect(readYesNo(text)).toBe("yes");
  });

  it.each(["Nein", "nee", "Nö, lieber nicht", "no", "Nope", "Vergiss es", "Lass mal", "nah"])("%j is a no", (text) => {
    expect(readYesNo(text)).toBe("no");
  });

  it("reads a mixed answer as no (the seed let the first word win)", () => {
    expect(readYesNo("Ok, nein")).toBe("no");
    expect(readYesNo("ja nee")).toBe("no");
    expect(readYesNo("Ja, aber lass das weg")).toBe("no");
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
  ])("%j answers something else", (text) => {
    expect(readYesNo(text)).toBeUndefined();
  });

  it("looks at the first four words only", () => {
    expect(readYesNo("Ich finde das eigentlich ganz okay")).toBeUndefined();
    expect(readYesNo("Hm, na gut, ok")).toBe("yes");
    expect(readYesNo("Ich finde das eigentlich ganz okay", 6)).toBe("yes");
  });
});
