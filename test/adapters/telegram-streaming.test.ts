import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAFT_EVERY_MS, EDIT_EVERY_MS } from "../../adapters/telegram/live-answer.ts";
import { htmlProblem, type SentCall } from "../fakes/fake-telegram.ts";
import { readDb } from "../helpers/read-db.ts";
import { ANNA, CHRIS, startTelegramHarness, type TelegramHarness } from "./telegram-harness.ts";

/** A long answer with a marker in its middle; the model writes it in eight-character pieces. */
const LONG =
  "Das klingt nach einem vollen Tag. Erst der Zahnarzt am Morgen, dann das Treffen mit deinem Team und am Abend noch der Einkauf. " +
  "[THOUGHT: Christian ist heute erschöpft und braucht Ruhe] " +
  "Vielleicht gönnst du dir heute Abend etwas Ruhe, ein warmes Essen und einen frühen Schlaf. Morgen sieht die Welt oft schon anders aus, " +
  "und wenn du magst, erzählst du mir dann, wie das Gespräch mit deiner Chefin gelaufen ist.";

const pieces = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

/** Calls of one method to one chat from index `from` of the log on, successful ones only. */
const callsSince = (h: TelegramHarness, from: number, method: string, chatId: number): SentCall[] =>
  h.tg.sent.slice(from).filter((c) => c.ok && c.method === method && Number(c.params.chat_id) === chatId);

/** Sends a text and waits until the n-th message after it (the answer) reached the chat. */
async function turn(h: TelegramHarness, chatId: number, text: string, messages = 1): Promise<{ from: number; sent: SentCall[]; askedAt: number }> {
  const from = h.tg.sent.length;
  const askedAt = Date.now();
  h.tg.pushMessage({ fromId: chatId, chatId, text });
  const sent = await h.tg.waitFor(() => {
    const m = callsSince(h, from, "sendMessage", chatId);
    return m.length >= messages ? m : undefined;
  }, 15_000);
  return { from, sent, askedAt };
}

/** Waits until the fake has logged a call matching `predicate` at index `from` or later. */
const waitCall = (h: TelegramHarness, from: number, predicate: (c: SentCall) => boolean) =>
  h.tg.waitFor((calls) => calls.slice(from).find((c) => c.ok && predicate(c)), 10_000);

describe("Telegram shows the answer as it is written", () => {
  let h: TelegramHarness;
  let off: TelegramHarness;
  beforeAll(async () => {
    [h, off] = await Promise.all([startTelegramHarness(), startTelegramHarness({ env: { LILO_STREAMING: "off" } })]);
  });
  afterAll(async () => {
    await Promise.all([h?.stop(), off?.stop()]);
  });

  it("keeps showing the answer across a tool call in its middle, and sends the final answer once", async () => {
    h.anthropic
      .reply({ text: "Moment, ich schaue nach.", toolCalls: [{ name: "memory_search", input: { query: "Tee" } }], stream: { paceMs: 40 } })
      .reply({ text: "Du trinkst am liebsten grünen Tee, am Nachmittag mit etwas Honig.", stream: { paceMs: 60 } });
    const { from, sent } = await turn(h, CHRIS, "Was trinke ich gern?");
    expect(h.chatRequests()).toHaveLength(2);
    const drafts = callsSince(h, from, "sendMessageDraft", CHRIS).map((c) => String(c.params.text));
    // The words before the tool call were on the screen (its first piece at once), then replaced by the answer after it.
    expect(drafts[0]).toMatch(/^Mom/);
    expect(drafts.at(-1)).toContain("grünen Tee");
    expect(sent.map((c) => c.params.text)).toEqual(["Du trinkst am liebsten grünen Tee, am Nachmittag mit etwas Honig."]);
  });

  it("a long answer with a marker in the middle: several drafts, the first soon after the first token, never a marker, the final text once and equal to the answer sent whole", async () => {
    h.streamPlan = { pieces: pieces(LONG, 8), paceMs: 60 };
    h.answer = () => LONG;
    const streamed = await turn(h, CHRIS, "Ich bin so müde heute.");
    off.answer = () => LONG;
    const whole = await turn(off, CHRIS, "Ich bin so müde heute.");

    const final = streamed.sent;
    expect(final).toHaveLength(1);
    const drafts = callsSince(h, streamed.from, "sendMessageDraft", CHRIS);
    const beforeFinal = drafts.filter((d) => d.at <= final[0]!.at);
    expect(beforeFinal.length).toBeGreaterThanOrEqual(2);
    // The model's first piece comes one pace after the request; the answer takes about 3.5 s in all.
    const firstToken = streamed.askedAt + 60;
    expect(final[0]!.at - firstToken).toBeGreaterThan(2_500);
    expect(drafts[0]!.at - firstToken).toBeLessThan(1_500);
    for (const d of drafts) {
      expect(String(d.params.text)).not.toMatch(/\[|THOUGHT|erschöpft/);
      expect(d.params.can_stop).toBe(true);
    }
    // Throttled: no two drafts much closer than the interval (slack for timers and the way to the fake), while pieces come every 60 ms.
    for (let i = 1; i < drafts.length; i++) expect(drafts[i]!.at - drafts[i - 1]!.at).toBeGreaterThanOrEqual(DRAFT_EVERY_MS - 100);
    expect(final[0]!.params.text).toBe(whole.sent[0]!.params.text);
    expect(final[0]!.params.text).not.toContain("[");
  }, 20_000);

  it("with LILO_STREAMING=off one sendMessage carries the answer and no draft is sent", async () => {
    off.answer = () => "Gute Nacht, schlaf gut.";
    const { from, sent } = await turn(off, CHRIS, "Ich geh schlafen.");
    expect(sent.map((c) => c.params.text)).toEqual(["Gute Nacht, schlaf gut."]);
    expect(off.tg.sent.slice(from).filter((c) => c.method === "sendMessageDraft" || c.method === "editMessageText")).toEqual([]);
  });

  it("a marker split across pieces never shows, not even its opening bracket", async () => {
    h.streamPlan = { pieces: ["Schön, dass du ", "da bist. [THO", "UGHT: Chris", "tian wirkt müde] Wie war ", "dein Tag?"], paceMs: 150 };
    h.answer = () => "Schön, dass du da bist. [THOUGHT: Christian wirkt müde] Wie war dein Tag?";
    const { from, sent } = await turn(h, CHRIS, "Hallo Lilo");
    const drafts = callsSince(h, from, "sendMessageDraft", CHRIS).map((c) => String(c.params.text));
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    for (const d of drafts) expect(d).not.toMatch(/\[|THO|müde/);
    expect(String(sent[0]!.params.text)).toMatch(/^Schön, dass du da bist\.\s+Wie war dein Tag\?$/);
  });

  it("a 6,000-character answer streams in drafts of at most 4,096 characters and arrives as two messages with every word", async () => {
    const sentence = "Heute war ein guter Tag mit vielen kleinen Freuden und einem langen Spaziergang am Fluss. ";
    const text = sentence.repeat(Math.ceil(6_000 / sentence.length)).trim();
    h.streamPlan = { pieces: pieces(text, 120), paceMs: 25 };
    h.answer = () => text;
    const { from, sent } = await turn(h, CHRIS, "Erzähl mir was Langes.", 2);
    const drafts = callsSince(h, from, "sendMessageDraft", CHRIS);
    for (const d of drafts) expect(String(d.params.text).length).toBeLessThanOrEqual(4_096);
    expect(new Set(drafts.map((d) => d.params.draft_id)).size).toBe(2);
    expect(sent).toHaveLength(2);
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    expect(words(sent.map((c) => String(c.params.text)).join(" "))).toEqual(words(text));
  });

  it("the stop button under a draft ends the answer: what was shown is sent and stored as a stopped answer", async () => {
    const text = "Eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn.";
    h.streamPlan = { pieces: pieces(text, 5), paceMs: 100 };
    h.answer = () => text;
    const from = h.tg.sent.length;
    h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "Zähl bis zwanzig." });
    const draft = await waitCall(h, from, (c) => c.method === "sendMessageDraft");
    h.tg.pushStopGeneration({ chatId: CHRIS, draftId: Number(draft.params.draft_id) });
    const [final] = await h.tg.waitFor(() => {
      const m = callsSince(h, from, "sendMessage", CHRIS);
      return m.length ? m : undefined;
    });
    const shown = String(final!.params.text);
    expect(text.startsWith(shown)).toBe(true);
    expect(shown.length).toBeLessThan(text.length);
    const row = readDb(h.lilo).get("SELECT text, stopped FROM messages WHERE role = 'assistant' ORDER BY id DESC LIMIT 1") as { text: string; stopped: number };
    expect(row).toEqual({ text: shown, stopped: 1 });
  });

  it("where drafts are refused, the first words go out as a message that is edited (throttled) with a stop button, and the final edit is the whole answer", async () => {
    h.tg.failNext("sendMessageDraft", 404, "Not Found: method not found");
    h.streamPlan = { pieces: pieces(LONG, 8), paceMs: 30 };
    h.answer = () => LONG;
    const from = h.tg.sent.length;
    h.tg.pushMessage({ fromId: ANNA, chatId: ANNA, text: "Ich bin so müde heute." });
    const last = await h.tg.waitFor(() => callsSince(h, from, "editMessageText", ANNA).find((c) => !c.params.reply_markup), 15_000);
    const first = callsSince(h, from, "sendMessage", ANNA);
    expect(first).toHaveLength(1);
    expect(JSON.stringify(first[0]!.params.reply_markup)).toContain("stop:");
    expect(String(first[0]!.params.text)).toMatch(/…$/);
    const edits = callsSince(h, from, "editMessageText", ANNA);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    for (const e of [first[0]!, ...edits]) expect(String(e.params.text)).not.toMatch(/\[|THOUGHT/);
    const writing = edits.filter((e) => e !== last);
    for (let i = 1; i < writing.length; i++) expect(writing[i]!.at - writing[i - 1]!.at).toBeGreaterThanOrEqual(EDIT_EVERY_MS - 100);
    expect(edits.at(-1)).toBe(last);
    expect(String(last.params.text)).not.toMatch(/…$|\[/);
    expect(String(last.params.text)).toContain("wie das Gespräch mit deiner Chefin gelaufen ist.");
    // The drafts are not tried again in this chat.
    expect(h.tg.sent.slice(from).filter((c) => c.method === "sendMessageDraft")).toHaveLength(1);
  }, 20_000);

  it("the stop button under a message being edited ends the answer and keeps what was shown, stored as stopped", async () => {
    const text = "Eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn.";
    h.streamPlan = { pieces: pieces(text, 5), paceMs: 100 };
    h.answer = () => text;
    const from = h.tg.sent.length;
    h.tg.pushMessage({ fromId: ANNA, chatId: ANNA, text: "Zähl bis zwanzig." });
    const first = await waitCall(h, from, (c) => c.method === "sendMessage" && Number(c.params.chat_id) === ANNA);
    const messageId = (first.result as { message_id: number }).message_id;
    const button = (first.params.reply_markup as { inline_keyboard: { callback_data: string }[][] }).inline_keyboard[0]![0]!;
    h.tg.pushCallback({ fromId: ANNA, chatId: ANNA, messageId, data: button.callback_data });
    const last = await h.tg.waitFor(() => callsSince(h, from, "editMessageText", ANNA).find((c) => !c.params.reply_markup));
    const shown = String(last.params.text);
    expect(text.startsWith(shown)).toBe(true);
    expect(shown.length).toBeLessThan(text.length);
    expect(callsSince(h, from, "sendMessage", ANNA)).toHaveLength(1);
    const row = readDb(h.lilo).get("SELECT text, stopped FROM messages WHERE role = 'assistant' AND user_id = 'anna' ORDER BY id DESC LIMIT 1");
    expect(row).toEqual({ text: shown, stopped: 1 });
  });

  it("an answer with bold, code, a code block and a link written in small pieces: every draft and edit is valid HTML and never shows half-written Markdown", async () => {
    const text =
      "Hier ist **das Wichtigste** für morgen: starte mit `npm run dev` und schau dann in die Doku unter [Lilos Seite](https://example.org/lilo?a=1&b=2).\n\n" +
      "```ts\nconst gruss = `Hallo ${name}`;\nif (a < b && b > c) gruss;\n```\n\nDanach ist alles **fertig** & du kannst `lilo status` aufrufen.";
    h.streamPlan = { pieces: pieces(text, 3), paceMs: 25 };
    h.answer = () => text;
    const from = h.tg.sent.length;
    // Both ways at once: the first message and its edits in Anna's chat (drafts refused there), drafts in Christian's.
    const refused = (c: SentCall) => c.method === "sendMessageDraft" && !c.ok && Number(c.params.chat_id) === ANNA;
    if (!h.tg.sent.some(refused)) h.tg.failNext("sendMessageDraft", 404, "Not Found: method not found");
    const annaTurn = turn(h, ANNA, "Was steht morgen an?");
    await h.tg.waitFor((calls) => calls.slice(from).find((c) => Number(c.params.chat_id) === ANNA && /^send(Message|MessageDraft)$/.test(c.method)));
    const [chris, anna] = await Promise.all([turn(h, CHRIS, "Was steht morgen an?"), annaTurn]);
    await h.tg.waitFor(() => callsSince(h, from, "editMessageText", ANNA).find((c) => !c.params.reply_markup), 15_000);
    const updates = [...callsSince(h, from, "sendMessageDraft", CHRIS), ...anna.sent, ...callsSince(h, from, "editMessageText", ANNA)];
    expect(callsSince(h, from, "sendMessageDraft", CHRIS).length).toBeGreaterThanOrEqual(3);
    expect(callsSince(h, from, "editMessageText", ANNA).length).toBeGreaterThanOrEqual(2);
    // No update failed and fell back to plain text: each went out as HTML that Telegram's parser accepts.
    expect(h.tg.sent.slice(from).filter((c) => !c.ok && !refused(c))).toEqual([]);
    for (const u of updates) {
      expect(u.params.parse_mode).toBe("HTML");
      expect(htmlProblem(String(u.params.text))).toBeUndefined();
      // Rendered Markdown leaves no delimiter on the screen; a span still being written is held back until it closes.
      const prose = String(u.params.text).replace(/<(pre|code)\b[^>]*>[\s\S]*?<\/\1>/g, "");
      expect(prose).not.toMatch(/\*\*|`|\]\(|\[Lilo/);
      expect(String(u.params.text)).not.toMatch(/&(?!(amp|lt|gt|quot);)/);
    }
    expect(String(chris.sent[0]!.params.text)).toContain('<a href="https://example.org/lilo?a=1&amp;b=2">Lilos Seite</a>');
    expect(String(chris.sent[0]!.params.text)).toContain("<b>fertig</b>");
  }, 20_000);

  it("/retry after a stream that broke off answers the message in full", async () => {
    h.streamPlan = { paceMs: 20, dropAfter: 3 };
    h.answer = () => "Der Zug fährt um acht Uhr ab Gleis drei.";
    const failed = await turn(h, CHRIS, "Wann fährt mein Zug?");
    // A connection that broke off is worth another try: the note says /retry, not "check the settings".
    expect(String(failed.sent[0]!.params.text)).toMatch(/^⚠️.*\/retry/);
    h.streamPlan = { paceMs: 20 };
    const retried = await turn(h, CHRIS, "/retry");
    expect(retried.sent.map((c) => c.params.text)).toEqual(["Der Zug fährt um acht Uhr ab Gleis drei."]);
  });
});
