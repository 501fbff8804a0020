import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, type TestLilo, fakeAnthropicEnv } from "../../helpers/test-lilo.ts";
import { recordingTransport, seedExchange } from "../../helpers/seed-chat.ts";
import { fixedClock } from "../../../core/index.ts";
import { thinkReply } from "../../../adapters/telegram/on-demand.ts";
import { concernOf } from "../../helpers/outcomes.ts";
import { TELEGRAM_TEXTS } from "../../../adapters/telegram/texts.ts";
import { readDb } from "../../helpers/read-db.ts";

const HOUR = 3_600_000;
const CONCERN = "Wie lief eigentlich der Umzug nach Hamburg?";

describe("a pushed 🧠 concern is part of the conversation", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  const clock = fixedClock("2026-12-02T21:00:00Z");

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => {
      if (body.model === "claude-think") return `1. Er plant viel.\n[ANSPRECHEN: ${CONCERN}]`;
      if (isExtraction(body.system)) return NO_EXTRACTION;
      return "Das klingt anstrengend, erzähl mehr.";
    });
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_CHAT_MODEL: "anthropic:claude-chat", LILO_REFLECTION_MODEL: "anthropic:claude-think" }), { clock });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("the user's answer treats the pushed concern as said: in its history, not on the sheet to raise again", async () => {
    const { lilo } = t;
    const transport = recordingTransport();
    lilo.push.registerTransport(transport);
    lilo.push.optIn("chris", { transport: "fake", chatId: "7" });
    seedExchange(lilo, "chris", "Ich packe Kisten.", "Viel Erfolg!", new Date(clock.now().getTime() - HOUR));

    const thought = await lilo.reflection.thinkNow("chris");
    expect(concernOf(thought)).toMatchObject({ status: "open", push: "sent" });
    expect(transport.sent).toHaveLength(1);
    // /think does not repeat a concern that was just pushed to the phone.
    expect(thinkReply(thought, TELEGRAM_TEXTS.de, "de")).toBe("💭 Er plant viel.");

    clock.advance(10 * 60_000);
    fake.requests.length = 0;
    const r = await lilo.handleMessage({ userId: "chris", text: "Anstrengend, aber wir sind drin!" });
    expect(r.ok).toBe(true);
    const chat = fake.requests.find((b) => b.model === "claude-chat" && !isExtraction(b.system))!;
    const history = chat.messages.map((m) => [m.role, m.content]);
    expect(history.at(-2)).toEqual(["assistant", `🧠 ${CONCERN}`]);
    expect(history.at(-1)).toEqual(["user", "Anstrengend, aber wir sind drin!"]);
    expect(chat.system).not.toContain(CONCERN);
  });

  it("/think shows a concern that was not pushed once, without a double 🧠", async () => {
    const { lilo } = t;
    seedExchange(lilo, "chris", "Ich packe Kisten.", "Viel Erfolg!", new Date(clock.now().getTime() - HOUR));
    const thought = await lilo.reflection.thinkNow("chris");
    expect(concernOf(thought)).toMatchObject({ push: "not-opted-in" });
    const shown = thinkReply(thought, TELEGRAM_TEXTS.de, "de");
    expect(shown).toBe(`💭 Er plant viel.\n\n🧠 Darauf möchte ich dich ansprechen: ${CONCERN}`);
    expect(readDb(lilo).get("SELECT count(*) AS n FROM messages WHERE proactive = 1")).toEqual({ n: 0 });
  });
});
