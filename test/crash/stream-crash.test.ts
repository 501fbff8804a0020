import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isExtraction, NO_EXTRACTION } from "../helpers/test-lilo.ts";
import { CrashWorld, TG_CHAT, until, type Proc } from "./world.ts";

/** Telegram alone is started and waited for: Matrix plays no part in this file. */
const TELEGRAM_READY = /telegram bot @\S+ polling/;

/** A long answer to a token, so the kill lands while drafts are still being shown. */
const answerTo = (token: string) => `Antwort ${token}: ${"Ein ruhiger Abend mit einem guten Buch tut gut. ".repeat(4).trim()}`;

/**
 * The real bot process killed with SIGKILL while Telegram shows an answer
 * as drafts, then started again: the message is answered exactly once, in
 * full, and nothing the fake Telegram confirmed is lost.
 */
describe("kill -9 while an answer streams", () => {
  let w: CrashWorld;
  let bot: Proc | undefined;
  /** Pace of the model's pieces: slow before the kill, quick after the restart. */
  let paceMs = 120;

  beforeAll(async () => {
    w = await CrashWorld.create();
    // Without Matrix's token the process starts Telegram alone: a quicker start, and less work beside the stream.
    w.extraEnv = { MATRIX_ACCESS_TOKEN: "" };
    w.llm.replyAlways((body) => {
      if (isExtraction(body.system)) return NO_EXTRACTION;
      const token = /x\d{3}/.exec(String(body.messages.at(-1)?.content ?? ""))?.[0] ?? "x000";
      return { text: answerTo(token), stream: { paceMs } };
    });
    bot = await w.startBot(TELEGRAM_READY);
  }, 60_000);
  afterAll(async () => {
    if (bot) await w.kill(bot);
    await w?.close();
  });

  it("the message whose answer was streaming is answered once, in full, after the restart", async () => {
    w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: "Was mache ich heute Abend? x501" });
    await until(
      () => w.tg.calls("sendMessageDraft", TG_CHAT).length >= 2,
      20_000,
      () => bot!.output().slice(-2000),
    );
    await w.kill(bot!);
    expect(w.tg.calls("sendMessage", TG_CHAT)).toEqual([]);
    expect(w.storedTokens().get("x501")).toBe(0);

    paceMs = 0;
    bot = await w.startBot(TELEGRAM_READY);
    // A later message is answered after the resumed one: once it is there, the resumed answer has had its chance to be doubled.
    w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: "Und morgen? x502" });
    await until(
      () => w.answered(["x501", "x502"]),
      20_000,
      () => bot!.output().slice(-2000),
    );
    const answers = w.tg.calls("sendMessage", TG_CHAT).map((c) => String(c.params.text));
    expect(answers).toEqual([answerTo("x501"), answerTo("x502")]);
    expect(w.storedTokens()).toEqual(
      new Map([
        ["x501", 1],
        ["x502", 1],
      ]),
    );
  }, 60_000);
});
