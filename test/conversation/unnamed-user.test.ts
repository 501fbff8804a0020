import { describe, expect, it } from "vitest";
import { loadConfig } from "../../core/index.ts";
import { createPersona } from "../../core/conversation/persona/persona.ts";
import { extractionSystemPrompt } from "../../core/conversation/prompts/extraction.ts";

/** A user Lilo was not told the name of is never "User": not in the persona, not in what the prompts name. */
describe("an unnamed user", () => {
  it.each([
    ["de", "dein Gegenüber", "Den Namen kennst du noch nicht"],
    ["en", "your friend", "You don't know their name yet"],
  ] as const)("in %s is addressed as %s and Lilo is told to ask for the name", (language, word, ask) => {
    const persona = createPersona(loadConfig({ LILO_LANGUAGE: language }).persona);
    expect(persona.userName("owner")).toBe(word);
    const prompt = persona.chatPrompt("owner");
    expect(prompt).toContain(ask);
    expect(prompt).not.toMatch(/\bUser\b/);
    expect(prompt).not.toContain("beim Namen");
    const named = createPersona(loadConfig({ LILO_LANGUAGE: language, LILO_USER_NAMES: "owner=Sam" }).persona);
    expect(named.chatPrompt("owner")).toMatch(language === "de" ? /Nenne Sam beim Namen/ : /Call Sam by name/);
  });

  it.each([
    ["de", "Mag kurze Antworten", "Sam mag kurze Antworten"],
    ["en", "Likes short answers", "Sam likes short answers"],
  ] as const)("in %s has facts extracted without a name (never 'User'), a named one with it, the example in that language", (language, unnamed, named) => {
    const persona = createPersona(loadConfig({ LILO_LANGUAGE: language }).persona);
    expect(persona.isNamed("owner")).toBe(false);
    const prompt = extractionSystemPrompt({ userName: persona.userName("owner"), named: false, assistantName: "Lilo", language });
    expect(prompt).toContain(`e.g. "${unnamed}"`);
    expect(prompt).toContain("without a name");
    expect(prompt).not.toMatch(/\bUser\b/);
    const withName = extractionSystemPrompt({ userName: "Sam", named: true, assistantName: "Lilo", language });
    expect(withName).toContain(`e.g. "${named}"`);
    expect(withName).toContain("naming Sam");
  });
});
