import { describe, expect, it } from "vitest";
import { loadConfig } from "../../core/index.ts";
import { createPersona } from "../../core/conversation/persona/persona.ts";

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
});
