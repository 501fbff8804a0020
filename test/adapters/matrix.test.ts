import { readFileSync } from "node:fs";
import { join as joinPath } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { ANY_USER, consoleLogger, silentLogger, type Lilo, type TurnMiddleware } from "../../core/index.ts";
import { ON_DEMAND_TEXTS } from "../../core/background/prompts/on-demand-texts.ts";
import { ruleQuestionText } from "../../core/conversation/questions/rule-question.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { matrixStarter } from "../../adapters/matrix/starter.ts";
import { MATRIX_TEXTS } from "../../adapters/matrix/texts.ts";
import { startFakeMatrix, type FakeMatrix, type SentEvent } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { isExtraction, makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { seedDb } from "../helpers/seed-db.ts";
import { memoryTable } from "../helpers/memory-table.ts";
import { readDb } from "../helpers/read-db.ts";
import { appliedEdits } from "./matrix-edits.ts";

const BOT = "@lilo:fake.server";
const CHRIS = "@chris:fake.server";
const ANNA = "@anna:fake.server";
const EVE = "@eve:fake.server";
const ROOM = "!chris:fake.server";
const T = MATRIX_TEXTS.de;
const EMPTY_EXTRACTION = JSON.stringify({ facts: [], content: [], profile: [], important: [] });
const RULE = "Antworte kürzer.";

/** The chat requests (not extraction) the fake model got. */
const chats = (model: FakeAnthropic) => model.requests.filter((r) => !isExtraction(r.system));
const lastUserText = (body: AnthropicRequestBody) => body.messages.at(-1)?.content ?? "";
const messages = (hs: FakeMatrix, roomId = ROOM) => hs.sent.filter((e) => e.roomId === roomId && e.type === "m.room.message");

describe("Matrix adapter against a fake homeserver", () => {
  let hs: FakeMatrix;
  let model: FakeAnthropic;
  let t: TestLilo;
  let bot: RunningMatrix;
  /** Chat answers by the user's text; default echoes it. */
  let answer: (text: string) => string | Promise<string>;
  let storage: MemoryStorageProvider;
  const logger = process.env.DEBUG_MATRIX ? consoleLogger("debug") : silentLogger;

  // Asks the learned-rule question when the user says "merk dir", as the correction step would.
  const askStep = (get: () => Lilo): TurnMiddleware => ({
    name: "test-ask",
    async run(ctx, next) {
      if (ctx.text.includes("merk dir")) ctx.question = get().questions.ask(ctx.userId, "rule", { rule: RULE }, ruleQuestionText("de", RULE), 60 * 60_000);
      await next();
    },
  });

  beforeEach(async () => {
    hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
    model = await startFakeAnthropic();
    answer = (text) => `Antwort auf: ${text}`;
    model.replyAlways(async (body) => (isExtraction(body.system) ? EMPTY_EXTRACTION : answer(lastUserText(body))));
    let lilo: Lilo | undefined;
    t = makeTestLilo(
      {
        ANTHROPIC_API_KEY: "sk-ant-test",
        ANTHROPIC_BASE_URL: model.baseURL,
        LILO_CHAT_MODEL: "anthropic:claude-test",
        MATRIX_HOMESERVER_URL: hs.url,
        MATRIX_ACCESS_TOKEN: "mx-token",
        MATRIX_ALLOWED_USERS: `${CHRIS}=chris,${ANNA}=anna`,
      },
      { steps: [askStep(() => lilo!)] },
    );
    lilo = t.lilo;
    storage = new MemoryStorageProvider();
    bot = await startMatrix(t.lilo, logger, { storage });
  });

  afterEach(async () => {
    await bot.stop();
    await hs.close();
    await t.cleanup();
    await model.close();
  });

  async function join(roomId = ROOM, by = CHRIS): Promise<void> {
    hs.invite(roomId, by);
    await hs.waitFor(() => hs.joined.has(roomId));
  }

  /** Sends a text and waits for the bot's next message in that room. */
  async function say(text: string, sender = CHRIS, roomId = ROOM): Promise<SentEvent> {
    const from = hs.sent.length;
    hs.sendText(roomId, sender, text);
    return hs.waitForSent((e) => e.roomId === roomId && e.type === "m.room.message", 5_000, from);
  }

  it("joins a room only on an allowed user's invitation, rejecting a stranger's", async () => {
    await join();
    hs.invite("!eve:fake.server", EVE);
    await hs.waitFor(() => hs.left.has("!eve:fake.server"));
    expect(hs.joined.has("!eve:fake.server")).toBe(false);
    expect(hs.joined.has(ROOM)).toBe(true);
  });

  it("leaves what was written before the invitation unanswered, but answers a message sent right after it", async () => {
    hs.sendText(ROOM, CHRIS, "Alte Nachricht aus der Zeit vor Lilo"); // shown to the bot as history when it joins
    hs.invite(ROOM, CHRIS);
    hs.sendText(ROOM, CHRIS, "Hallo, neu hier"); // a new DM's first message, sent before the bot has joined
    expect((await hs.waitForSent((e) => e.type === "m.room.message")).content.body).toBe("Antwort auf: Hallo, neu hier");
    expect((await say("Und jetzt?")).content.body).toBe("Antwort auf: Und jetzt?");
    expect(chats(model).map(lastUserText)).toEqual(["Hallo, neu hier", "Und jetzt?"]);
    expect(JSON.stringify(readDb(t.lilo).all("SELECT text FROM messages"))).not.toContain("Alte Nachricht");
  });

  it("answers a message through the core turn: typing while it runs, HTML, the mood as a reaction", async () => {
    answer = () => "Schön, dich zu sehen, **Chris**! [EMOTION: froh]";
    await join();
    const userEvent = hs.sendText(ROOM, CHRIS, "Hallo Lilo");
    const reply = await hs.waitForSent((e) => e.type === "m.room.message");

    expect(reply.content).toEqual({
      msgtype: "m.text",
      body: "Schön, dich zu sehen, **Chris**!",
      format: "org.matrix.custom.html",
      formatted_body: "Schön, dich zu sehen, <b>Chris</b>!",
    });
    const chat = chats(model)[0]!;
    expect(chat.messages).toEqual([{ role: "user", content: "Hallo Lilo" }]);
    expect(chat.system).toContain("Du bist Lilo"); // the core's cheat sheet
    expect(hs.typing[0]).toEqual({ roomId: ROOM, typing: true });
    await hs.waitFor(() => hs.typing.some((x) => !x.typing));
    const mood = await hs.waitForSent((e) => e.type === "m.reaction");
    expect(mood.content["m.relates_to"]).toEqual({ rel_type: "m.annotation", event_id: userEvent, key: "😁" });
    const rows = readDb(t.lilo).all("SELECT user_id, role, text FROM messages ORDER BY id");
    expect(rows).toEqual([
      { user_id: "chris", role: "user", text: "Hallo Lilo" },
      { user_id: "chris", role: "assistant", text: "Schön, dich zu sehen, **Chris**!" },
    ]);
  });

  it("answers allowed users only: never a stranger, its own message, a room no allowed user invited it to", async () => {
    await join();
    hs.joined.add("!elsewhere:fake.server"); // a room the bot is in without an allowed invitation
    hs.sendText("!elsewhere:fake.server", CHRIS, "Nachricht im fremden Raum");
    hs.sendText(ROOM, EVE, "Geheimnis von Eve");
    await say("Erste Nachricht");
    // The bot's own answer comes back in its timeline before this one; it must not answer it.
    await say("Zweite Nachricht");

    expect(messages(hs).map((e) => e.content.body)).toEqual(["Antwort auf: Erste Nachricht", "Antwort auf: Zweite Nachricht"]);
    expect(hs.sent.filter((e) => e.roomId === "!elsewhere:fake.server")).toEqual([]);
    expect(chats(model).map(lastUserText)).toEqual(["Erste Nachricht", "Zweite Nachricht"]);
    expect(JSON.stringify(model.requests)).not.toMatch(/Eve|fremden Raum/);
    const stored = readDb(t.lilo).all("SELECT text FROM messages") as { text: string }[];
    expect(stored.map((r) => r.text).join("\n")).not.toMatch(/Eve|fremden Raum/);
  });

  it("stores the rule only on the question owner's 👍, ignoring another user's reaction", async () => {
    await join();
    await say("Bitte merk dir das");
    const question = await hs.waitForSent((e) => e.type === "m.room.message" && String(e.content.body).includes("Soll ich mir das merken?"));
    expect(question.content.body).toContain(RULE);
    await hs.waitFor(
      () =>
        hs.sent.filter((e) => e.type === "m.reaction" && (e.content["m.relates_to"] as { event_id?: string } | undefined)?.event_id === question.eventId)
          .length === 2,
    );

    const from = hs.sent.length;
    hs.react(ROOM, ANNA, question.eventId, "👍"); // allowed user, but not the question's owner
    hs.react(ROOM, CHRIS, question.eventId, "👍️"); // with the emoji presentation selector, as Element sends it
    const outcome = await hs.waitForSent((e) => e.type === "m.room.message", 5_000, from);

    expect(outcome.content.body).toBe(`📌 Gemerkt: „${RULE}“`);
    expect(messages(hs).slice(-1)).toEqual([outcome]); // nothing was sent for Anna's reaction
    expect(t.lilo.rules.list("chris").map((r) => r.text)).toEqual([RULE]);
    expect(t.lilo.rules.list("anna")).toEqual([]);
    await hs.waitFor(() => hs.redactions.length === 2); // the bot's 👍/👎 hints are removed
  });

  it("remembers allowed rooms with open questions across a restart", async () => {
    await join();
    await say("Bitte merk dir das");
    const question = await hs.waitForSent((e) => e.type === "m.room.message" && String(e.content.body).includes("Soll ich mir das merken?"));
    await bot.stop();
    bot = await startMatrix(t.lilo, logger, { storage });
    const from = hs.sent.length;
    hs.react(ROOM, CHRIS, question.eventId, "👍");
    expect((await hs.waitForSent((e) => e.type === "m.room.message", 5_000, from)).content.body).toBe(`📌 Gemerkt: „${RULE}“`);
    expect((await say("Noch da?")).content.body).toBe("Antwort auf: Noch da?");
    expect(t.lilo.rules.list("chris")).toHaveLength(1);
  });

  it("is started by the adapter list when configured, with its state in the data dir", async () => {
    await bot.stop();
    bot = (await matrixStarter(t.lilo, logger)) as RunningMatrix;
    await join();
    expect((await say("Hallo")).content.body).toBe("Antwort auf: Hallo");
    expect(readFileSync(joinPath(t.dir, "matrix-bot.json"), "utf8")).toContain(ROOM.replace("!", ""));
    const unconfigured = makeTestLilo();
    try {
      expect(await matrixStarter(unconfigured.lilo, logger)).toBeUndefined();
    } finally {
      await unconfigured.cleanup();
    }
  });

  it("stores nothing on 👎", async () => {
    await join();
    await say("Bitte merk dir das");
    const question = await hs.waitForSent((e) => e.type === "m.room.message" && String(e.content.body).includes("Soll ich mir das merken?"));
    const from = hs.sent.length;
    hs.react(ROOM, CHRIS, question.eventId, "👎");
    const outcome = await hs.waitForSent((e) => e.type === "m.room.message", 5_000, from);
    expect(outcome.content.body).toBe("Okay, ich merke mir das nicht.");
    expect(t.lilo.rules.list("chris")).toEqual([]);
  });

  it("delivers broken Markdown safely: the plain body intact, the HTML escaped", async () => {
    answer = () => "2 * 3 < 7 and **unclosed <script>alert(1)</script>";
    await join();
    const reply = await say("Rechne mal");
    expect(reply.content.body).toBe("2 * 3 < 7 and **unclosed <script>alert(1)</script>");
    expect(reply.content.formatted_body).toBe("2 * 3 &lt; 7 and **unclosed &lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("splits long answers at the configured limit", async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Absatz ${i}: ${"Wort ".repeat(100).trim()}.`).join("\n\n");
    answer = () => long;
    await join();
    await say("Erzähl viel");
    // What a client shows: a long answer may have been shown as it was written, its messages edited to their final text.
    const shown = () => appliedEdits(hs, ROOM).map((c) => String(c.body));
    await hs.waitFor(() => shown().join("\n\n") === long);
    const parts = shown();
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.length <= 16_000)).toBe(true);
    expect(parts.join("\n\n")).toBe(long);
  });

  it("sends a push to the opted-in room, logging it", async () => {
    await join();
    expect((await say("!push on")).content.body).toBe(T.pushOn);
    const outcome = await t.lilo.push.send("chris", { kind: "greeting", text: "Guten Morgen, **Chris**!" });
    expect(outcome).toBe("sent");
    const push = messages(hs).at(-1)!;
    expect(push.content).toMatchObject({ body: "Guten Morgen, **Chris**!", formatted_body: "Guten Morgen, <b>Chris</b>!" });
    expect(t.lilo.push.history("chris")[0]).toMatchObject({ outcome: "sent", transport: "matrix", chatId: ROOM, kind: "greeting" });
  });

  it("answers one room in order while another room is answered in between", async () => {
    let releaseA1!: () => void;
    const a1Held = new Promise<void>((r) => (releaseA1 = r));
    answer = async (text) => {
      if (text === "A1") await a1Held;
      return `Antwort ${text}`;
    };
    await join(ROOM, CHRIS);
    await join("!anna:fake.server", ANNA);
    hs.sendText(ROOM, CHRIS, "A1");
    hs.sendText(ROOM, CHRIS, "A2");
    await hs.waitFor(() => chats(model).some((r) => lastUserText(r) === "A1"));
    hs.sendText("!anna:fake.server", ANNA, "B1");
    await hs.waitForSent((e) => e.content.body === "Antwort B1");
    expect(chats(model).map(lastUserText)).toEqual(["A1", "B1"]); // A2 waits for A1's answer
    releaseA1();
    await hs.waitForSent((e) => e.content.body === "Antwort A2");
    const order = hs.sent.filter((e) => e.type === "m.room.message").map((e) => e.content.body);
    expect(order).toEqual(["Antwort B1", "Antwort A1", "Antwort A2"]);
  });

  it("with MATRIX_ENCRYPTION=false, tells an encrypted room once that it cannot read it", async () => {
    await bot.stop();
    const plain = makeTestLilo({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      MATRIX_HOMESERVER_URL: hs.url,
      MATRIX_ACCESS_TOKEN: "mx-token",
      MATRIX_ALLOWED_USERS: `${CHRIS}=chris`,
      MATRIX_ENCRYPTION: "false",
    });
    bot = await startMatrix(plain.lilo, logger, { storage });
    await join();
    const encrypted = { algorithm: "m.megolm.v1.aes-sha2", ciphertext: "AwgAEn...", session_id: "s", sender_key: "k", device_id: "D" };
    hs.sendEvent(ROOM, CHRIS, "m.room.encrypted", encrypted);
    hs.sendEvent(ROOM, CHRIS, "m.room.encrypted", encrypted);
    hs.sendText(ROOM, CHRIS, "Klartext");
    await hs.waitForSent((e) => e.content.body === "Antwort auf: Klartext");
    expect(messages(hs).map((e) => e.content.body)).toEqual([T.encrypted, "Antwort auf: Klartext"]);
    expect(chats(model)).toHaveLength(1);
    await bot.stop();
    bot = await startMatrix(t.lilo, logger, { storage });
    await plain.cleanup();
  });

  it("runs its commands (help, model, memory, forget), checking ownership", async () => {
    await join();
    expect((await say("!help")).content.body).toBe(T.help.join("\n"));
    expect((await say("/model")).content.body).toBe(T.model("anthropic:claude-test"));
    const mine = await t.lilo.memory.add({ text: "Chris mag Tee", userId: "chris" });
    const hers = await t.lilo.memory.add({ text: "Anna mag Kaffee", userId: "anna" });
    if (!mine.added || !hers.added) throw new Error("setup failed");
    expect((await say("!memory")).content.body).toBe(`${T.notesHeader}\n- \`${mine.id}\` Chris mag Tee`);
    expect((await say(`!forget ${hers.id}`)).content.body).toBe(T.noSuchNote(hers.id));
    expect(t.lilo.memory.get(ANY_USER, "notes", hers.id)).toBeDefined();
    expect((await say(`!forget ${mine.id}`)).content.body).toBe(T.forgotten(mine.id));
    expect(t.lilo.memory.get(ANY_USER, "notes", mine.id)).toBeUndefined();
    expect((await say("!nonsense")).content.body).toBe(T.unknown("!nonsense"));
    expect(chats(model)).toHaveLength(0); // commands never reach the model
  });

  it("at a spent day budget holds messages back (once a sentence, then 😴) until !budget lifts it and !retry answers", async () => {
    await join();
    await say("Hallo");
    await t.lilo.idle();
    await t.lilo.settings.set("budget.day", "1 tokens");
    const calls = model.requests.length;
    expect((await say("Noch da?")).content.body).toContain("Das Tagesbudget ist aufgebraucht");
    const from = hs.sent.length;
    hs.sendText(ROOM, CHRIS, "Hallo?");
    expect((await hs.waitForSent((e) => e.type === "m.reaction", 5_000, from)).content["m.relates_to"]).toMatchObject({ key: "😴" });
    expect(model.requests).toHaveLength(calls);
    expect((await say("!budget")).content.body).toContain("Die Grenze des Budgets ist für heute aufgehoben");
    expect((await say("!retry")).content.body).toBe("Antwort auf: Noch da?\n\nHallo?");
  });

  it("refuses to forget a superseded (corrected) note, like Telegram: the ownership rule is the core's", async () => {
    await join();
    const old = await t.lilo.memory.add({ text: "Chris mag Tee", userId: "chris" });
    if (!old.added) throw new Error("setup failed");
    // As a correction leaves it: the row kept, marked superseded.
    const at = t.lilo.clock.now().toISOString();
    seedDb(t.lilo, (sql) => memoryTable(sql, "notes").supersede(old.id, at));
    expect((await say(`!forget ${old.id}`)).content.body).toBe(T.noSuchNote(old.id));
    expect(
      (readDb(t.lilo).get("SELECT superseded_at FROM notes WHERE id = ?", old.id) as { superseded_at: string | null } | undefined)?.superseded_at,
    ).toBeTruthy();
  });

  it("writes the diary or thinks on demand", async () => {
    await join();
    expect((await say("!diary")).content.body).toBe(ON_DEMAND_TEXTS.de.diaryNone["no-conversation"]);
    await say("Heute war ein langer Tag im Büro.");
    answer = () => "Heute erzählte mir Chris von seinem langen Bürotag.";
    const diary = await say("!diary");
    expect(diary.content.body).toMatch(/^📔 \*\*\d{4}-\d{2}-\d{2}\*\*\n\nHeute erzählte mir Chris von seinem langen Bürotag\.$/);
    expect(t.lilo.diary.list("chris")).toHaveLength(1);
    answer = () => "Chris arbeitet viel; ich vermute, er braucht Pausen.";
    const thought = await say("!think");
    expect(thought.content.body).toContain("💭");
    expect(t.lilo.reflection.list("chris")).toHaveLength(1);
  });
});
