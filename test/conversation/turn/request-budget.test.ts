import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { BUDGET_TEXTS } from "../../../core/conversation/prompts/budget.ts";
import { fitRequest, requestTokens, shortenText, type RequestBudget } from "../../../core/conversation/turn/request-budget.ts";
import { readDb } from "../../helpers/read-db.ts";

const isExtraction = (messages: { role: string; content: string }[]) => messages[0]?.role === "system" && messages[0].content.includes("You extract memories");
const BUDGET_TOKENS = 8_000;
/** The fake model refuses any request body longer than this (about 32k characters, as in the issue). */
const MODEL_LIMIT_CHARS = 32_000;

describe("budgets: one huge message never breaks the turns after it", () => {
  let openai: FakeOpenAI;
  let t: TestLilo;
  let nextAnswer: string | undefined;

  beforeEach(async () => {
    openai = await startFakeOpenAI();
    openai.limitContext(MODEL_LIMIT_CHARS);
    nextAnswer = undefined;
    openai.replyAlways((body) => {
      if (isExtraction(body.messages)) return JSON.stringify({ facts: [], content: [], profile: [], important: [] });
      const answer = nextAnswer ?? "Alles klar.";
      nextAnswer = undefined;
      return answer;
    });
    t = makeTestLilo({
      OPENAI_BASE_URL: openai.baseURL,
      LILO_CHAT_MODEL: "openai:small-context",
      LILO_MAX_INPUT_CHARS: "8000",
      LILO_HISTORY_MESSAGE_CHARS: "2000",
      LILO_REQUEST_BUDGET_TOKENS: String(BUDGET_TOKENS),
    });
  });
  afterEach(async () => {
    await t.cleanup();
    await openai.close();
  });

  const chatRequests = () => openai.requests.filter((r) => !isExtraction(r.messages));
  const asChatRequest = (body: (typeof openai.requests)[number]) => ({
    system: body.messages[0]!.content,
    messages: body.messages.slice(1) as { role: "user" | "assistant"; content: string }[],
  });

  it("keeps every request within budget after a 100,000-character message, which is stored whole", async () => {
    const { lilo } = t;
    const huge = `${"Lorem ipsum dolor sit amet. ".repeat(4_000).slice(0, 99_999)}.`;
    const first = await lilo.handleMessage({ userId: "chris", text: huge });
    expect(first.ok).toBe(true);
    expect(first.text).toBe(`Alles klar.\n\n${BUDGET_TEXTS.de.inputShortened(100_000, 8_000)}`);
    const stored = readDb(lilo).get("SELECT length(text) AS n FROM messages WHERE role = 'user'") as { n: number };
    expect(stored.n).toBe(100_000);
    const sent = chatRequests()[0]!.messages.at(-1)!.content;
    expect(sent.length).toBeLessThan(8_100);
    expect(sent).toContain(BUDGET_TEXTS.de.cut(92_000));

    // Lilo's own answer can be huge too: stored whole, replayed capped.
    nextAnswer = "Sehr lange Antwort. ".repeat(5_000);
    expect((await lilo.handleMessage({ userId: "chris", text: "Erzähl mir alles." })).ok).toBe(true);

    for (let i = 0; i < 3; i++) {
      const next = await lilo.handleMessage({ userId: "chris", text: `Und jetzt? (${i})` });
      expect(next.ok).toBe(true);
      expect(next.text).toBe("Alles klar.");
    }
    await lilo.idle();
    for (const body of chatRequests()) {
      expect(JSON.stringify(body).length).toBeLessThanOrEqual(MODEL_LIMIT_CHARS);
      expect(requestTokens(asChatRequest(body))).toBeLessThanOrEqual(BUDGET_TOKENS);
    }
    const last = chatRequests().at(-1)!;
    expect(last.messages.at(-1)!.content).toBe("Und jetzt? (2)");
    // The history is still there, each message capped with a visible note.
    expect(last.messages.some((m) => m.content.includes(BUDGET_TEXTS.de.cut(98_000)))).toBe(true);
    expect(openai.requests.every((r) => JSON.stringify(r).length <= MODEL_LIMIT_CHARS)).toBe(true);
  });
});

describe("fitRequest", () => {
  const budget: RequestBudget = { maxInputChars: 1_000, historyMessageChars: 500, requestTokens: 300 };
  const turn = (role: "user" | "assistant", n: number) => ({ role, content: `${role} ${n} `.padEnd(270, ".") });

  it("leaves the oldest turns off first, keeping the turns starting with the user", () => {
    const request = { system: "System.", messages: [turn("user", 1), turn("assistant", 1), turn("user", 2), turn("assistant", 2), turn("user", 3)] };
    const { request: fitted, dropped } = fitRequest(request, budget, "de");
    expect(fitted.messages.map((m) => m.content.split(" ").slice(0, 2).join(" "))).toEqual(["user 2", "assistant 2", "user 3"]);
    expect(dropped).toBe(2);
    expect(requestTokens(fitted)).toBeLessThanOrEqual(budget.requestTokens);
  });

  it("shortens the new message when it alone is over budget", () => {
    const { request } = fitRequest({ system: "S", messages: [{ role: "user", content: "x".repeat(5_000) }] }, budget, "en");
    expect(requestTokens(request)).toBeLessThanOrEqual(budget.requestTokens);
    expect(request.messages[0]!.content).toContain("more characters not shown");
  });

  it("never halves an emoji when it shortens a text", () => {
    expect(shortenText("ab😀cd", 3, "en").startsWith("ab\n")).toBe(true);
  });
});
