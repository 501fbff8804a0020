import { silentLogger, type Clock, type Lilo, type LiloPorts, type Logger, type TurnMiddleware } from "../../core/index.ts";
import { startTelegram, type TelegramAdapter } from "../../adapters/telegram/bot.ts";
import { startFakeAnthropic, type AnthropicRequestBody, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeTelegram, type FakeTelegram, type SentCall } from "../fakes/fake-telegram.ts";
import type { StreamPlan } from "../fakes/sse.ts";
import { isExtraction, makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";

/** Telegram ids of the test users: Christian and Anna are allowed, 333 is a stranger. */
export const CHRIS = 111;
export const ANNA = 222;
export const STRANGER = 333;

const NO_EXTRACTION = JSON.stringify({ facts: [], content: [], profile: [], important: [] });

/** Everything one Telegram test runs against: real grammY and Lilo, fake Telegram and Anthropic. */
export interface TelegramHarness {
  tg: FakeTelegram;
  anthropic: FakeAnthropic;
  t: TestLilo;
  lilo: Lilo;
  adapter: TelegramAdapter;
  /** The chat model's answer to a user text (may be async, e.g. to hold a turn). Default: "Hallo!". */
  answer: (userText: string) => string | Promise<string>;
  /** How chat answers stream (pieces, pace, a dropped connection); default the fake's four-character pieces at once. */
  streamPlan?: StreamPlan | undefined;
  /** The chat (not extraction) requests the model got. */
  chatRequests(): AnthropicRequestBody[];
  stop(): Promise<void>;
}

/** The last user text of a model request. */
export const lastUserText = (body: AnthropicRequestBody) => body.messages.at(-1)?.content ?? "";

/** Starts fakes, a test Lilo and the Telegram adapter (long polling unless env sets a webhook). */
export async function startTelegramHarness(
  opts: { env?: Record<string, string>; steps?: (lilo: () => Lilo) => TurnMiddleware[]; logger?: Logger; clock?: Clock; ports?: LiloPorts } = {},
): Promise<TelegramHarness> {
  const anthropic = await startFakeAnthropic();
  const tg = await startFakeTelegram({ maxHoldMs: 500 });
  let lilo: Lilo | undefined;
  const steps = opts.steps?.(() => lilo!) ?? [];
  const t = makeTestLilo(
    {
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: anthropic.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      LILO_USER_NAMES: "chris=Christian,anna=Anna",
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.url,
      TELEGRAM_ALLOWED_USERS: `${CHRIS}=chris,${ANNA}=anna`,
      ...opts.env,
    },
    { steps, ...opts.ports, ...(opts.clock ? { clock: opts.clock } : {}) },
  );
  lilo = t.lilo;
  const h: TelegramHarness = {
    tg,
    anthropic,
    t,
    lilo,
    adapter: undefined as unknown as TelegramAdapter,
    answer: () => "Hallo!",
    chatRequests: () => anthropic.requests.filter((r) => !isExtraction(r.system)),
    stop: async () => {
      await h.adapter?.stop();
      await t.cleanup();
      await tg.close();
      await anthropic.close();
    },
  };
  anthropic.replyAlways(async (body) => {
    if (isExtraction(body.system)) return NO_EXTRACTION;
    const text = await h.answer(lastUserText(body));
    return h.streamPlan ? { text, stream: h.streamPlan } : text;
  });
  const adapter = await startTelegram(lilo, opts.logger ?? silentLogger);
  if (!adapter) throw new Error("the Telegram adapter did not start");
  h.adapter = adapter;
  return h;
}

/** Successful sendMessage calls to a chat, as the user sees them. */
export function messagesIn(tg: FakeTelegram, chatId: number): SentCall[] {
  return tg.calls("sendMessage", chatId);
}

/** Waits for the n-th successful sendMessage to a chat (1-based). */
export function waitForMessages(tg: FakeTelegram, chatId: number, n = 1, timeoutMs?: number): Promise<SentCall[]> {
  return tg.waitFor(() => {
    const m = messagesIn(tg, chatId);
    return m.length >= n ? m : undefined;
  }, timeoutMs);
}

/** A promise with its resolve function, to hold a model answer until the test lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
