import { afterEach, describe, expect, it } from "vitest";
import { compose } from "../../../core/conversation/turn/compose.ts";
import { Turn } from "../../../core/conversation/turn/context.ts";
import { buildCheatSheet, slotSections } from "../../../core/conversation/turn/cheat-sheet.ts";
import type { TurnMiddleware } from "../../../core/conversation/turn/types.ts";
import { fixedClock } from "../../../core/index.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, fakeAnthropicEnv, NO_EXTRACTION, type TestLilo } from "../../helpers/test-lilo.ts";

const message = {
  id: 1,
  userId: "chris",
  conversationId: 1,
  role: "user" as const,
  text: "Hallo",
  model: null,
  mood: null,
  proactive: false,
  createdAt: "2026-12-02T18:00:00.000Z",
};
const turn = () => new Turn({ kind: "retry", message });
const mw = (name: string, run: TurnMiddleware["run"]): TurnMiddleware => ({ name, run });

describe("compose: (ctx, next) middleware in one ordered list", () => {
  it("runs in order, with the part after `await next()` unwinding in reverse", async () => {
    const log: string[] = [];
    const chain = compose(
      ["a", "b", "c"].map((n) =>
        mw(n, async (_ctx, next) => {
          log.push(`${n} before`);
          await next();
          log.push(`${n} after`);
        }),
      ),
    );
    await chain(turn());
    expect(log).toEqual(["a before", "b before", "c before", "c after", "b after", "a after"]);
  });

  it("stops where a middleware answers the turn without calling next", async () => {
    const ran: string[] = [];
    const chain = compose([
      mw("answers", async (ctx) => {
        ran.push("answers");
        ctx.result = { ok: true, text: "Ja.", userMessageId: 1, notesUsed: [] };
      }),
      mw("model", async () => {
        ran.push("model");
      }),
    ]);
    const ctx = turn();
    await chain(ctx);
    expect(ran).toEqual(["answers"]);
    expect(ctx.result?.text).toBe("Ja.");
  });

  it("refuses next() called twice", async () => {
    const chain = compose([
      mw("twice", async (_ctx, next) => {
        await next();
        await next();
      }),
    ]);
    await expect(chain(turn())).rejects.toThrow(/called next\(\) twice/);
  });

  it("reports a message field read before the message was stored", () => {
    expect(() => turn().text).toThrow(/before it was stored/);
  });
});

describe("the sheet's sections come from typed slots in docs/spec.md §4 order, whatever the middleware order", () => {
  it("orders question outcome, greeting, due topic, corrections, diary, pictures", () => {
    const ctx = turn();
    // Filled in the reverse order on purpose.
    ctx.sheet.unseenPhotos = "P";
    ctx.sheet.diaryQuestion = "D";
    ctx.sheet.corrections.push("C1", "C2");
    ctx.sheet.dueTopic = "T";
    ctx.sheet.returnGreeting = "G";
    ctx.sheet.questionOutcome = "Q";
    expect(slotSections(ctx.sheet)).toEqual(["Q", "G", "T", "C1", "C2", "D", "P"]);
    const sheet = buildCheatSheet({
      language: "de",
      userName: "Chris",
      assistantName: "Lilo",
      timezone: "Europe/Berlin",
      persona: "Du bist Lilo.",
      markerInstructions: "",
      now: "jetzt",
      rules: [],
      profile: [],
      important: [],
      notes: [],
      passages: [],
      thoughts: [],
      slots: ctx.sheet,
      recent: [],
      message: "Hallo",
    });
    expect(sheet.system.endsWith("Q\n\nG\n\nT\n\nC1\n\nC2\n\nD\n\nP")).toBe(true);
  });
});

describe("extra middleware in a real turn", () => {
  let fake: FakeAnthropic | undefined;
  let t: TestLilo | undefined;
  afterEach(async () => {
    await t?.cleanup();
    await fake?.close();
    t = undefined;
    fake = undefined;
  });

  it("wraps the rest of the turn: it may answer itself, or see the answer after next()", async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Hallo Chris!"));
    const seen: string[] = [];
    const steps: TurnMiddleware[] = [
      mw("short-cut", async (ctx, next) => {
        if (ctx.text === "ping") {
          ctx.result = { ok: true, text: "pong", userMessageId: ctx.userMessage.id, notesUsed: [] };
          return;
        }
        await next();
        seen.push(ctx.result?.text ?? "");
      }),
    ];
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock: fixedClock("2026-12-02T18:00:00Z"), steps });
    const pong = await t.lilo.handleMessage({ userId: "chris", text: "ping" });
    expect(pong.text).toBe("pong");
    expect(fake.requests).toEqual([]);
    // Answered by the middleware: the message is not waiting any more, so there is nothing to retry.
    expect(await t.lilo.retry("chris")).toBeUndefined();
    const hello = await t.lilo.handleMessage({ userId: "chris", text: "Hallo" });
    await t.lilo.idle();
    expect(hello.text).toBe("Hallo Chris!");
    expect(seen).toEqual(["Hallo Chris!"]);
  });
});
