import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { fixedClock } from "../../../core/index.ts";
import { JUDGE_PROMPT_MARK, RULE_PROMPT_MARK } from "../../../core/conversation/prompts/correction.ts";

/** Which call a request to the fake model is. */
export type CallKind = "judge" | "rule" | "extraction" | "summary" | "chat";

export function callKind(body: AnthropicRequestBody): CallKind {
  const s = body.system ?? "";
  if (s.includes(JUDGE_PROMPT_MARK)) return "judge";
  if (s.includes(RULE_PROMPT_MARK)) return "rule";
  if (isExtraction(s)) return "extraction";
  if (s.includes("Summarise")) return "summary";
  return "chat";
}

/** A Lilo for Christian ("chris") against a fake Anthropic server whose answers per call kind the test sets. */
export interface Scenario {
  t: TestLilo;
  fake: FakeAnthropic;
  clock: ReturnType<typeof fixedClock>;
  /** What the judge answers (raw text). */
  judge: string;
  /** What the rule derivation answers (raw text). */
  rule: string;
  /** What the chat model answers, as a function of the last user message. */
  chat: (message: string) => string;
  calls(kind: CallKind): AnthropicRequestBody[];
  cleanup(): Promise<void>;
}

export const USER = "chris";

export async function startScenario(env: Record<string, string> = {}): Promise<Scenario> {
  const fake = await startFakeAnthropic();
  const clock = fixedClock("2026-12-02T18:00:00Z");
  const t = makeTestLilo(fakeAnthropicEnv(fake, env), { clock });
  const s: Scenario = {
    t,
    fake,
    clock,
    judge: JSON.stringify({ verdicts: [] }),
    rule: JSON.stringify({ rule: null }),
    chat: () => "Okay.",
    calls: (kind) => fake.requests.filter((r) => callKind(r) === kind),
    cleanup: async () => {
      await t.cleanup();
      await fake.close();
    },
  };
  fake.replyAlways((body) => {
    switch (callKind(body)) {
      case "judge":
        return s.judge;
      case "rule":
        return s.rule;
      case "extraction":
        return NO_EXTRACTION;
      case "summary":
        return "Zusammenfassung.";
      case "chat":
        return s.chat(String(body.messages.at(-1)?.content ?? ""));
    }
  });
  return s;
}

/** One chat turn as Christian, waiting for the background work. */
export async function say(s: Scenario, text: string) {
  const r = await s.t.lilo.handleMessage({ userId: USER, text });
  await s.t.lilo.idle();
  return r;
}
