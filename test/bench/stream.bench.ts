/**
 * `npm run bench:stream`: how soon an answer shown as it is written becomes
 * visible, and what showing it costs. A fake chat model in the process
 * writes a 200-token answer with a marker in its middle at a local model's
 * CPU pace (20 tokens/s, `BENCH_TOKENS_PER_S`) and notes when its first and
 * last token left it. Each run is one real chat turn:
 *
 * - through the core (`handleMessage` with a stream): the first visible text
 *   after the first token, the turn's result after the last token;
 * - through the Matrix adapter (real matrix-bot-sdk, the fake homeserver):
 *   the first message in the room after the first token, the gaps between
 *   its edits, the final edit after the last token;
 * - through the Telegram adapter (real grammY, the fake Bot API), once with
 *   drafts and once where drafts are refused (first message, then edits):
 *   the first visible update after the first token, the gaps between
 *   updates, the final message (or final edit) after the last token.
 *
 * Then the marker filter alone, on a 5,800-character answer in 1,500 deltas
 * (the long answer's worst case: every delta re-examines what is held back),
 * against parsing the whole answer once as the non-streamed path does.
 */
import { cpus, loadavg, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { silentLogger, type ChatModel, type ChatRequest, type ChatResponse } from "../../core/index.ts";
import { MarkerStreamFilter } from "../../core/conversation/markers/stream-filter.ts";
import { parseMarkers } from "../../core/conversation/markers/parse.ts";
import { MARKERS } from "../../core/conversation/markers/registry.ts";
import { startMatrix } from "../../adapters/matrix/bot.ts";
import { startFakeMatrix, type SentEvent } from "../fakes/fake-matrix.ts";
import type { SentCall } from "../fakes/fake-telegram.ts";
import { ANNA, CHRIS, startTelegramHarness } from "../adapters/telegram-harness.ts";
import { piecesOf } from "../fakes/sse.ts";
import { makeTestLilo, NO_EXTRACTION } from "../helpers/test-lilo.ts";
import { ms, pct, time } from "./bench-kit.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TOKENS_PER_S = Number(process.env.BENCH_TOKENS_PER_S ?? 20);
const TOKENS = 200;

const SENTENCE = "Das klingt nach einem langen Tag, und ich höre dir gern zu, wenn du magst. ";
/** About 200 tokens of four characters, with a marker in the middle that must never be shown. */
const WORDS = SENTENCE.repeat(Math.ceil((TOKENS * 4) / SENTENCE.length));
const ANSWER = `${WORDS.slice(0, 400)}[REMEMBER: Christian hatte einen langen Tag] ${WORDS.slice(400, TOKENS * 4)}`.trim();

/** When the fake model's tokens left it, per chat call. */
interface Pace {
  firstToken: number;
  lastToken: number;
}

/** A chat model writing `ANSWER` a token at a time at TOKENS_PER_S; extraction and other JSON calls answer at once. */
function pacedModel(paces: Pace[]): ChatModel {
  const tokens = piecesOf(ANSWER, 4);
  return {
    provider: "bench",
    model: "paced",
    async complete(request: ChatRequest): Promise<ChatResponse> {
      if (request.json || request.schema || request.purpose !== "chat") return { text: NO_EXTRACTION, model: "paced" };
      const pace: Pace = { firstToken: 0, lastToken: 0 };
      const start = performance.now();
      for (let i = 0; i < tokens.length; i++) {
        // Paced against the start, so timer drift does not add up over the answer.
        const due = start + ((i + 1) * 1000) / TOKENS_PER_S - performance.now();
        if (due > 0) await new Promise((r) => setTimeout(r, due));
        if (i === 0) pace.firstToken = performance.now();
        request.onDelta?.(tokens[i]!);
      }
      pace.lastToken = performance.now();
      paces.push(pace);
      return { text: ANSWER, model: "paced", usage: { inputTokens: 500, outputTokens: tokens.length } };
    },
  };
}

async function coreTurns(): Promise<void> {
  const paces: Pace[] = [];
  const t = makeTestLilo({}, { chatModel: pacedModel(paces) });
  const first: number[] = [];
  const final: number[] = [];
  const whole: number[] = [];
  const firstSeen: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      let shownAt = 0;
      const sent = performance.now();
      const r = await t.lilo.handleMessage(
        { userId: "chris", text: `Wie war dein Tag? (${i})` },
        { stream: { onText: () => void (shownAt ||= performance.now()) } },
      );
      const done = performance.now();
      if (!r.ok || r.text.includes("[")) throw new Error(`the turn failed: ${r.text}`);
      const pace = paces.at(-1)!;
      first.push(shownAt - pace.firstToken);
      final.push(done - pace.lastToken);
      firstSeen.push(shownAt - sent);
      whole.push(done - sent);
      await t.lilo.idle();
    }
  } finally {
    await t.cleanup();
  }
  console.log(`\ncore turn (handleMessage with a stream), ${RUNS} runs      p50 ms   p95 ms`);
  console.log(`  first visible text after the first token          ${ms(first)}`);
  console.log(`  result after the last token                       ${ms(final)}`);
  console.log(`  message → first visible text                      ${ms(firstSeen)}`);
  console.log(`  message → whole answer                            ${ms(whole)}`);
}

async function matrixTurns(): Promise<void> {
  const paces: Pace[] = [];
  const hs = await startFakeMatrix({ botUserId: "@lilo:bench", accessToken: "mx" });
  const at = new Map<SentEvent, number>();
  const push = hs.sent.push.bind(hs.sent);
  hs.sent.push = (...events: SentEvent[]) => {
    for (const e of events) at.set(e, performance.now());
    return push(...events);
  };
  const t = makeTestLilo(
    { MATRIX_HOMESERVER_URL: hs.url, MATRIX_ACCESS_TOKEN: "mx", MATRIX_ALLOWED_USERS: "@chris:bench=chris", MATRIX_ENCRYPTION: "false" },
    { chatModel: pacedModel(paces) },
  );
  const bot = await startMatrix(t.lilo, silentLogger, { storage: new MemoryStorageProvider() });
  const room = "!chris:bench";
  const first: number[] = [];
  const final: number[] = [];
  const gaps: number[] = [];
  let edits = 0;
  try {
    hs.invite(room, "@chris:bench");
    await hs.waitFor(() => hs.joined.has(room));
    for (let i = 0; i < RUNS; i++) {
      const from = hs.sent.length;
      const answered = paces.length;
      hs.sendText(room, "@chris:bench", `Wie war dein Tag? (${i})`);
      const isFinal = (e: SentEvent) => {
        const c = (e.content["m.new_content"] ?? e.content) as { body?: string };
        return c.body === parseMarkers(ANSWER, MARKERS).text;
      };
      await hs.waitFor(() => paces.length > answered && hs.sent.slice(from).some((e) => e.type === "m.room.message" && isFinal(e)), 120_000);
      const events = hs.sent.slice(from).filter((e) => e.type === "m.room.message");
      if (events.some((e) => JSON.stringify(e.content).includes("["))) throw new Error("a marker reached the room");
      const pace = paces.at(-1)!;
      const times = events.map((e) => at.get(e)!);
      first.push(times[0]! - pace.firstToken);
      final.push(times.at(-1)! - pace.lastToken);
      for (let j = 1; j < times.length - 1; j++) gaps.push(times[j]! - times[j - 1]!);
      edits += events.length - 1;
      await t.lilo.idle();
    }
  } finally {
    await bot.stop();
    await hs.close();
    await t.cleanup();
  }
  console.log(`\nMatrix room (first message, then m.replace edits), ${RUNS} runs  p50 ms   p95 ms`);
  console.log(`  first message after the first token               ${ms(first)}`);
  console.log(`  gap between updates while writing                 ${gaps.length ? ms(gaps) : "       –        –"}`);
  console.log(`  final edit after the last token                   ${ms(final)}`);
  console.log(`  edits per answer: ${(edits / RUNS).toFixed(1)}`);
}

/** One way of showing the answer on Telegram: which calls are updates while writing, and which one is the final text. */
interface TelegramWay {
  label: string;
  chatId: number;
  /** A visible update while the answer is written (the final one included). */
  update: (c: SentCall) => boolean;
  final: (c: SentCall) => boolean;
}

async function telegramTurns(): Promise<void> {
  const paces: Pace[] = [];
  const h = await startTelegramHarness({ ports: { chatModel: pacedModel(paces) } });
  const at = new Map<SentCall, number>();
  const push = h.tg.sent.push.bind(h.tg.sent);
  h.tg.sent.push = (...calls: SentCall[]) => {
    for (const c of calls) at.set(c, performance.now());
    return push(...calls);
  };
  const inChat = (c: SentCall, chatId: number) => c.ok && Number(c.params.chat_id) === chatId;
  const ways: TelegramWay[] = [
    {
      label: "drafts (sendMessageDraft, then sendMessage)",
      chatId: CHRIS,
      update: (c) => inChat(c, CHRIS) && (c.method === "sendMessageDraft" || c.method === "sendMessage"),
      final: (c) => inChat(c, CHRIS) && c.method === "sendMessage",
    },
    {
      label: "drafts refused (first message, then editMessageText)",
      chatId: ANNA,
      update: (c) => inChat(c, ANNA) && (c.method === "sendMessage" || c.method === "editMessageText"),
      // The final edit is the one without the stop button.
      final: (c) => inChat(c, ANNA) && c.method === "editMessageText" && !c.params.reply_markup,
    },
  ];
  try {
    for (const way of ways) {
      // As on an older Bot API server: Anna's chat refuses the first draft, and the adapter remembers it.
      if (way.chatId === ANNA) h.tg.failNext("sendMessageDraft", 404, "Not Found: method not found");
      const first: number[] = [];
      const final: number[] = [];
      const gaps: number[] = [];
      let updates = 0;
      for (let i = 0; i < RUNS; i++) {
        const from = h.tg.sent.length;
        const answered = paces.length;
        h.tg.pushMessage({ fromId: way.chatId, chatId: way.chatId, text: `Wie war dein Tag? (${i})` });
        const last = await h.tg.waitFor((calls) => paces.length > answered && calls.slice(from).find(way.final), 120_000);
        const shown = h.tg.sent.slice(from, h.tg.sent.indexOf(last) + 1).filter(way.update);
        if (shown.some((c) => JSON.stringify(c.params.text).includes("["))) throw new Error("a marker reached the chat");
        const pace = paces.at(-1)!;
        const times = shown.map((c) => at.get(c)!);
        first.push(times[0]! - pace.firstToken);
        final.push(times.at(-1)! - pace.lastToken);
        for (let j = 1; j < times.length - 1; j++) gaps.push(times[j]! - times[j - 1]!);
        updates += shown.length - 1;
        await h.lilo.idle();
      }
      console.log(`\nTelegram chat, ${way.label}, ${RUNS} runs`.padEnd(52) + "  p50 ms   p95 ms");
      console.log(`  first visible words after the first token         ${ms(first)}`);
      console.log(`  gap between updates while writing                 ${gaps.length ? ms(gaps) : "       –        –"}`);
      console.log(`  final text after the last token                   ${ms(final)}`);
      console.log(`  updates per answer before the final one: ${(updates / RUNS).toFixed(1)}`);
    }
  } finally {
    await h.stop();
  }
}

async function filterCost(): Promise<void> {
  const SIZE = 5_800;
  const DELTAS = 1_500;
  const parts: string[] = [];
  for (let i = 0; parts.join("").length < SIZE; i++) {
    if (i % 9 === 4) parts.push("[REMEMBER: Christian mag lange Antworten] ");
    else if (i % 13 === 7) parts.push("\n\n```\nconst x = [1, 2, 3];\n```\n\n");
    else if (i % 11 === 5) parts.push("„Ein Zitat mit [Klammern] darin“ ");
    else parts.push(SENTENCE);
  }
  const text = parts.join("").slice(0, SIZE);
  const cut = (i: number) => Math.round((i * text.length) / DELTAS);
  const deltas = Array.from({ length: DELTAS }, (_, i) => text.slice(cut(i), cut(i + 1)));
  let shown = "";
  const stream = () => {
    const filter = new MarkerStreamFilter(MARKERS);
    shown = "";
    for (const d of deltas) shown += filter.push(d);
    shown += filter.end().rest;
  };
  const s = await time(40, stream);
  const w = await time(40, () => parseMarkers(text, MARKERS));
  if (shown !== parseMarkers(text, MARKERS).text) throw new Error("the streamed text differs from the non-streamed one");
  const turnMs = (TOKENS / TOKENS_PER_S) * 1000;
  console.log(`\nmarker filter, ${text.length} characters in ${deltas.length} deltas, 40 runs   p50 ms   p95 ms`);
  console.log(`  streamed through MarkerStreamFilter               ${ms(s)}`);
  console.log(`  parsed whole (the non-streamed path)              ${ms(w)}`);
  console.log(
    `  per delta: ${((pct(s, 50) / deltas.length) * 1000).toFixed(1)} µs; of a ${turnMs / 1000} s answer: ${((pct(s, 50) / turnMs) * 100).toFixed(2)} %`,
  );
}

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log(`fake model: ${TOKENS} tokens at ${TOKENS_PER_S} tokens/s (${(TOKENS / TOKENS_PER_S).toFixed(0)} s an answer), a marker in the middle`);
await filterCost();
await coreTurns();
await matrixTurns();
await telegramTurns();
