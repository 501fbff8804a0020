/**
 * The Matrix privacy tests' world: the real adapter (matrix-bot-sdk) against
 * the fake homeserver and a fake Anthropic whose answer tells whether the
 * owner's PIN note reached the sheet ("Antwort: PIN 4711" / "… ohne PIN"),
 * Lilo invited to the owner's room by the owner.
 */
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { silentLogger } from "../../core/index.ts";
import { startMatrix, type RunningMatrix } from "../../adapters/matrix/bot.ts";
import { startFakeMatrix, type FakeMatrix } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { NO_EXTRACTION, isExtraction, makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { readDb } from "../helpers/read-db.ts";

export const BOT = "@lilo:fake.server";
export const CHRIS = "@chris:fake.server";
export const ROOM = "!chris:fake.server";
export const ASK = "Wie ist Christians PIN für das Fahrradschloss?";
export const PIN_NOTE = "Christians PIN für das Fahrradschloss ist 4711.";

/** The running world; `bot` is replaced when a test restarts the adapter on the same `storage`. */
export interface PinRoom {
  hs: FakeMatrix;
  model: FakeAnthropic;
  t: TestLilo;
  bot: RunningMatrix;
  storage: MemoryStorageProvider;
}

/**
 * Starts the world: `allowedUsers` is MATRIX_ALLOWED_USERS; every text in
 * `pinQuestions` (and ASK) finds the PIN note, which Chris ("chris") owns.
 */
export async function startPinRoom(allowedUsers: string, pinQuestions: readonly string[]): Promise<PinRoom> {
  const hs = await startFakeMatrix({ botUserId: BOT, accessToken: "mx-token" });
  const model = await startFakeAnthropic();
  model.replyAlways(async (body) => (isExtraction(body.system) ? NO_EXTRACTION : `Antwort: ${body.system?.includes("4711") ? "PIN 4711" : "ohne PIN"}`));
  const t = makeTestLilo({
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: model.baseURL,
    LILO_CHAT_MODEL: "anthropic:claude-test",
    MATRIX_HOMESERVER_URL: hs.url,
    MATRIX_ACCESS_TOKEN: "mx-token",
    MATRIX_ALLOWED_USERS: allowedUsers,
  });
  // Every question about the PIN finds the PIN note (same vector).
  const pin = Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0));
  for (const text of [PIN_NOTE, ASK, ...pinQuestions]) t.embedder.set(text, pin);
  await t.lilo.memory.add({ text: PIN_NOTE, userId: "chris" });
  const storage = new MemoryStorageProvider();
  const bot = await startMatrix(t.lilo, silentLogger, { storage });
  hs.invite(ROOM, CHRIS);
  await hs.waitFor(() => hs.joined.has(ROOM));
  return { hs, model, t, bot, storage };
}

/** Stops the adapter and every server, and removes the temp dir. */
export async function stopPinRoom(w: PinRoom): Promise<void> {
  await w.bot.stop();
  await w.hs.close();
  await w.t.cleanup();
  await w.model.close();
}

/** The bodies of the messages Lilo sent to ROOM, in order. */
export const roomBodies = (w: PinRoom): string[] =>
  w.hs.sent.filter((e) => e.roomId === ROOM && e.type === "m.room.message").map((e) => String(e.content.body));

/** Every stored chat-log text, in order. */
export const storedTexts = (w: PinRoom): string[] => (readDb(w.t.lilo).all("SELECT text FROM messages ORDER BY id") as { text: string }[]).map((r) => r.text);

/** How many chat calls (not extraction) the model got. */
export const chatCalls = (w: PinRoom): number => w.model.requests.filter((r) => !isExtraction(r.system)).length;
