import { afterEach, describe, expect, it } from "vitest";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";

describe("lilo.models: the chat model in force", () => {
  let t: TestLilo | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  // Adapters ask before downloading a photo; the answer follows a run-time switch, as the turn does.
  it("acceptsImages follows LILO_VISION for the chat model now in force", async () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-test", OPENAI_API_KEY: "sk-test", LILO_CHAT_MODEL: "anthropic:claude-test", LILO_VISION: "anthropic" };
    t = makeTestLilo(env);
    const { lilo } = t;
    expect(lilo.models.acceptsImages()).toBe(true);
    await lilo.models.switchChat("openai:gpt-test", lilo.clock.now().toISOString());
    expect(lilo.models.acceptsImages()).toBe(false);
    lilo.models.resetChat();
    expect(lilo.models.chatSpec()).toMatchObject({ provider: "anthropic", model: "claude-test" });
    expect(lilo.models.acceptsImages()).toBe(true);
  });
});
