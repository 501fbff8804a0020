import { describe, expect, it } from "vitest";
import { CORRECTION_PATTERN_COUNT, correctionTrigger } from "../../../core/conversation/correction/prefilter.ts";

describe("correction prefilter", () => {
  it("has about twenty patterns (the seed's, plus the common ones it missed)", () => {
    expect(CORRECTION_PATTERN_COUNT).toBeGreaterThanOrEqual(18);
    expect(CORRECTION_PATTERN_COUNT).toBeLessThanOrEqual(30);
  });

  it.each([
    ["Das stimmt nicht.", "stimmt nicht"],
    ["Stimmt so nicht, ich war in Köln.", "stimmt nicht"],
    ["Das stimmt doch gar nicht!", "stimmt nicht"],
    ["Nein, das ist falsch.", "falsch"],
    ["Du hast das falsche Datum.", "falsch"],
    ["Ich wohne nicht mehr in Berlin.", "nicht mehr"],
    ["Das hast du erfunden", "erfunden"],
    ["Trödeltrupp habe ich nie erwähnt!", "nie gesagt"],
    ["Das hab ich nie im Leben gesagt", "nie gesagt"],
    ["Das habe ich so nie gesagt", "nie gesagt"],
    ["Du verwechselst da was", "verwechselt"],
    ["Das ist nicht richtig", "nicht richtig"],
    ["Das ist nicht wahr.", "nicht richtig"],
    ["Da irrst du dich", "irrst dich"],
    ["Das ist veraltet", "veraltet"],
    ["Kleine Korrektur: es war Dienstag", "korrigieren"],
    ["So ein Quatsch", "quatsch"],
    ["Wie kommst du denn darauf?", "wie kommst du darauf"],
    ["That's wrong.", "that's wrong"],
    ["That’s not true at all", "that's wrong"],
    ["I never said that", "I never said"],
    ["I never actually mentioned it", "I never said"],
    ["You're confusing me with someone", "you're confusing"],
    ["you mixed things up", "you're confusing"],
    ["You made that up", "made up"],
    ["I no longer work there", "no longer"],
    ["I don't live there anymore", "no longer"],
    ["You're mistaken", "mistaken"],
    ["That's outdated", "outdated"],
    // Corrections phrased without a correction word: a denial with "kein", "not said", "where did you get that".
    ["Nein, ich habe keinen Hund", "kein"],
    ["Ich habe gar keinen Hund!", "kein"],
    ["Ich hab doch keine Katze", "kein"],
    ["Das habe ich so nicht gesagt", "nicht gesagt"],
    ["Hab ich nicht behauptet", "nicht gesagt"],
    ["Wie kommst du auf Hund?", "wie kommst du darauf"],
    ["Du liegst daneben", "liegst daneben"],
    ["Da liegst du leider daneben", "liegst daneben"],
    ["I don't have a dog", "I don't have"],
    ["I have no sister", "I don't have"],
    ["I didn't say that", "I didn't say"],
    ["You're way off", "you're off"],
    ["Where did you get that?", "you're off"],
    ["What makes you think I live in Paris?", "you're off"],
  ])("hits %j (%s)", (text, name) => {
    expect(correctionTrigger(text)).toBe(name);
  });

  it.each([
    // Compounds: whole words only.
    "Ich habe Falschgeld im Film gesehen",
    "Der Falschparker stand wieder vor der Tür",
    "It was a wrongful arrest in the film",
    // Time and quantity phrases with "nicht mehr" are not a correction.
    "Es ist nicht mehr lange bis Weihnachten",
    "Bis Köln ist es nicht mehr weit",
    "Ich trinke nicht mehr als zwei Kaffee",
    // A tag question.
    "Schönes Wetter heute, nicht wahr?",
    // Ordinary messages.
    "Ich war gestern noch im Kino",
    "Stimmt, das war schön",
    "Was machen wir morgen?",
    "Nie wieder Montag!",
    // Idioms with "kein" / "no" (false friends).
    "Ich habe keine Ahnung, was ich kochen soll",
    "Ich hab heute keine Zeit",
    "Ich habe keine Lust auf Regen",
    "Kein Problem!",
    "I have no idea what to cook",
    "I don't have any time today",
    "Wie geht es dir?",
  ])("does not hit %j", (text) => {
    expect(correctionTrigger(text)).toBeUndefined();
  });
});
