import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ANY_USER, type TurnMiddleware } from "../../core/index.ts";
import { CHRIS, ANNA, STRANGER, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";

// Lilo talks in private chats only; another user pressing a forwarded button is still refused.
const QUESTION = "Soll ich mir das merken? 📌 „Antworte kurz.“";

describe("Telegram adapter: yes/no buttons", () => {
  let h: TelegramHarness;
  beforeEach(async () => {
    // A turn middleware that asks the rule question through the core, like the correction flow does.
    h = await startTelegramHarness({
      steps: (lilo): TurnMiddleware[] => [
        {
          name: "ask-rule",
          run: async (ctx, next) => {
            if (ctx.text.includes("kurz")) ctx.question = lilo().questions.ask(ctx.userId, "rule", { rule: "Antworte kurz." }, QUESTION, 60 * 60_000);
            await next();
          },
        },
      ],
    });
    h.answer = () => "Verstanden.";
  });
  afterEach(async () => {
    await h.stop();
  });

  it("renders the core's question as buttons, only the owner's press storing the rule", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Bitte antworte kurz." });
    const [answer, question] = await waitForMessages(h.tg, CHRIS, 2);
    expect(answer!.params.text).toBe("Verstanden.");
    expect(question!.params.text).toBe(QUESTION);
    const keyboard = question!.params.reply_markup as { inline_keyboard: { text: string; callback_data: string }[][] };
    const pending = h.lilo.questions.pending("chris")!;
    expect(keyboard.inline_keyboard).toEqual([
      [
        { text: "Ja", callback_data: `q:${pending.id}:yes` },
        { text: "Nein", callback_data: `q:${pending.id}:no` },
      ],
    ]);
    const messageId = (question!.result as { message_id: number }).message_id;
    const answered = (id: string) => h.tg.waitFor((calls) => calls.find((c) => c.method === "answerCallbackQuery" && c.params.callback_query_id === id));

    // Anna is allowed to talk to Lilo, but this is not her question.
    const anna = h.tg.pushCallback({ fromId: ANNA, chatId: CHRIS, messageId, data: `q:${pending.id}:yes` });
    expect((await answered(anna.id)).params.text).toBe("Diese Frage gibt es nicht.");
    const stranger = h.tg.pushCallback({ fromId: STRANGER, chatId: CHRIS, messageId, data: `q:${pending.id}:yes` });
    expect((await answered(stranger.id)).params.text).toBe("Entschuldige, ich spreche nur mit Menschen, die ich kenne.");
    expect(h.lilo.rules.list("chris")).toEqual([]);
    expect(h.lilo.rules.list("anna")).toEqual([]);
    expect(h.tg.sent.some((c) => c.method.startsWith("editMessage"))).toBe(false);

    const chris = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `q:${pending.id}:yes` });
    await answered(chris.id);
    const edit = await h.tg.waitFor((calls) => calls.find((c) => c.method === "editMessageText"));
    expect(edit.params).toMatchObject({ chat_id: CHRIS, message_id: messageId });
    expect(edit.params.text).toContain("📌 Gemerkt: „Antworte kurz.“");
    expect(edit.params.reply_markup).toBeUndefined(); // the buttons are gone
    expect(h.lilo.rules.list("chris").map((r) => r.text)).toEqual(["Antworte kurz."]);
    expect(h.lilo.questions.get(pending.id)?.status).toBe("yes");

    // A second tap changes nothing and says so.
    const again = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId, data: `q:${pending.id}:no` });
    expect((await answered(again.id)).params.text).toBe("Diese Frage ist schon beantwortet.");
    expect(h.lilo.rules.list("chris")).toHaveLength(1);
  });

  it("a typed answer settles the question, so its buttons go away", async () => {
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Bitte antworte kurz." });
    const [, question] = await waitForMessages(h.tg, CHRIS, 2);
    const messageId = (question!.result as { message_id: number }).message_id;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Ja" });
    const cleared = await h.tg.waitFor((calls) => calls.find((c) => c.method === "editMessageReplyMarkup"));
    expect(cleared.params).toMatchObject({ chat_id: CHRIS, message_id: messageId, reply_markup: { inline_keyboard: [] } });
    expect(h.lilo.rules.list("chris").map((r) => r.text)).toEqual(["Antworte kurz."]);
    const [, , reply] = await waitForMessages(h.tg, CHRIS, 3);
    expect(reply!.params.text).toBe("📌 Gemerkt: „Antworte kurz.“");
  });

  it("shortens a long note in /memory without cutting an emoji in half", async () => {
    // Character 199 is the first half of 😀: a plain slice would leave a lone surrogate, which Telegram refuses.
    const long = `${"a".repeat(198)}😀 Ende`;
    const note = await h.lilo.memory.add({ text: long, userId: "chris" });
    if (!note.added) throw new Error("note not added");
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/memory" });
    const [view] = await waitForMessages(h.tg, CHRIS, 1);
    expect(view!.params.text).toContain(`#${note.id} ${"a".repeat(198)}…`);
    expect(h.tg.sent.filter((c) => c.method === "sendMessage" && !c.ok)).toEqual([]);
  });

  it("lists notes with forget buttons on /memory, forgetting only the user's own notes", async () => {
    const mine = await h.lilo.memory.add({ text: "Christian trinkt Tee", userId: "chris" });
    const hers = await h.lilo.memory.add({ text: "Anna mag Jazz", userId: "anna" });
    if (!mine.added || !hers.added) throw new Error("notes not added");
    // The note is on the cheat sheet when the message has the same vector.
    h.t.embedder.set("Was trinke ich gern?", Array.from(mine.vector!));
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Was trinke ich gern?" });
    await waitForMessages(h.tg, CHRIS, 1);
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/memory" });
    const [, view] = await waitForMessages(h.tg, CHRIS, 2);
    expect(view!.params.text).toContain("Notizen in meiner letzten Antwort:");
    expect(view!.params.text).toContain(`#${mine.id} Christian trinkt Tee`);
    expect(view!.params.text).not.toContain("Anna mag Jazz");
    const keyboard = view!.params.reply_markup as { inline_keyboard: { callback_data: string }[][] };
    expect(keyboard.inline_keyboard.flat().map((b) => b.callback_data)).toEqual([`f:${mine.id}`]);

    // Anna's note cannot be forgotten by Christian, by command or by a forged button.
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: `/forget ${hers.id}` });
    const [, , refused] = await waitForMessages(h.tg, CHRIS, 3);
    expect(refused!.params.text).toBe("Diese Notiz gibt es nicht.");
    const forged = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId: 1, data: `f:${hers.id}` });
    await h.tg.waitFor((calls) => calls.find((c) => c.params.callback_query_id === forged.id));
    expect(h.lilo.memory.get(ANY_USER, "notes", hers.id)).toBeDefined();

    const viewId = (view!.result as { message_id: number }).message_id;
    const press = h.tg.pushCallback({ fromId: CHRIS, chatId: CHRIS, messageId: viewId, data: `f:${mine.id}` });
    const done = await h.tg.waitFor((calls) => calls.find((c) => c.params.callback_query_id === press.id));
    expect(done.params.text).toBe("🗑 Vergessen: „Christian trinkt Tee“");
    expect(h.lilo.memory.get(ANY_USER, "notes", mine.id)).toBeUndefined();
    expect(await h.lilo.memory.search("Was trinke ich gern?", { userId: "chris" })).toEqual([]);
    const markup = await h.tg.waitFor((calls) => calls.find((c) => c.method === "editMessageReplyMarkup"));
    expect(markup.params.reply_markup).toEqual({ inline_keyboard: [] });
  });
});
