/**
 * `npm run bench:tokens`: what a conversation costs in tokens. A scripted
 * 50-turn German conversation (every tenth turn asks about something said
 * earlier, so the model answers with [RECALL:] and one follow-up call) runs
 * through the real chat turn, the real Anthropic SDK and a fake server that
 * counts about four characters a token and plays Anthropic's prompt cache (a
 * cache_control block seen before is read from the cache). Then the diary,
 * a reflection and a greeting run once each. The usage ledger gives the
 * numbers: mean input (of it cached) and output tokens per ordinary turn, per
 * turn with one lookup, and per job run, with the cost at claude-sonnet-4-5's
 * list price. Every call of a turn counts (chat, follow-up, extraction, judge).
 */
import { cpus, loadavg, totalmem } from "node:os";
import { fixedClock, type Lilo } from "../../core/index.ts";
import { type UsageTotals } from "../../core/internal.ts";
import { startFakeAnthropic, type AnthropicRequestBody } from "../fakes/fake-anthropic.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION } from "../helpers/test-lilo.ts";
import { recordingTransport } from "../helpers/seed-chat.ts";

const TOPICS = [
  "Ich habe heute mit dem Laufen angefangen, drei Kilometer im Park.",
  "Meine Schwester Anna zieht nächsten Monat nach Hamburg.",
  "Im Büro war es stressig, der Release wurde verschoben.",
  "Ich trinke morgens am liebsten grünen Tee, keinen Kaffee.",
  "Am Wochenende will ich endlich das Regal aufbauen.",
  "Mein Knie tut nach dem Laufen etwas weh.",
  "Ich lese gerade ein Buch über die Geschichte der Seefahrt.",
  "Heute Abend koche ich Linsensuppe nach Omas Rezept.",
  "Der Zug hatte wieder vierzig Minuten Verspätung.",
  "Ich überlege, ob ich Spanisch lernen soll.",
];
const LOOKUPS = ["Weißt du noch, was ich morgens gern trinke?", "Weißt du noch, wohin Anna zieht?", "Weißt du noch, was ich am Wochenende vorhatte?"];
const ANSWER =
  "Das klingt nach einem vollen Tag. Erzähl mir gern mehr davon, wie es dir dabei ging und was dich am meisten beschäftigt hat. [EMOTION: neugierig]";

const cacheSeen = new Set<string>();

/** What a server would count: about four characters a token; a cache_control block it saw before is read from the cache. */
function usageOf(body: AnthropicRequestBody, text: string) {
  const tokens = (s: string) => Math.ceil(s.length / 4);
  const whole = tokens(JSON.stringify({ system: body.system ?? "", messages: body.messages, tools: body.tools ?? [] }));
  const cached = body.systemBlocks?.[0]?.cache_control ? body.systemBlocks[0].text : undefined;
  const prefix = cached ? tokens(cached) : 0;
  const hit = cached !== undefined && cacheSeen.has(cached);
  if (cached) cacheSeen.add(cached);
  return {
    input_tokens: whole - prefix,
    ...(cached ? { cache_read_input_tokens: hit ? prefix : 0, cache_creation_input_tokens: hit ? 0 : prefix } : {}),
    output_tokens: tokens(text),
  };
}

function reply(body: AnthropicRequestBody): { text: string; usage: ReturnType<typeof usageOf> } {
  const last = body.messages.at(-1)?.content ?? "";
  let text = ANSWER;
  if (isExtraction(body.system)) text = NO_EXTRACTION;
  else if (LOOKUPS.includes(last)) text = "[RECALL: Tee Anna Wochenende]";
  else if (/Tagebuch|diary/i.test(body.system ?? "")) text = "Heute war ein ruhiger Tag. Ich habe viel zugehört und mich über kleine Fortschritte gefreut.";
  else if (/^1\./m.test(body.messages[0]?.content ?? "") && body.messages.length === 1)
    text = "1. Er kommt in Bewegung.\n2. Die Verspätungen nerven ihn.\n3. Ich frage nach dem Knie.";
  return { text, usage: usageOf(body, text) };
}

function diff(a: UsageTotals, b: UsageTotals) {
  return {
    input: b.inputTokens - a.inputTokens,
    cached: b.cachedInputTokens - a.cachedInputTokens,
    output: b.outputTokens - a.outputTokens,
    cost: (b.cost ?? 0) - (a.cost ?? 0),
  };
}

type Sample = ReturnType<typeof diff>;

function mean(rows: Sample[]) {
  const n = rows.length || 1;
  const sum = (k: keyof Sample) => rows.reduce((s, r) => s + r[k], 0) / n;
  return { n: rows.length, input: sum("input"), cached: sum("cached"), output: sum("output"), cost: sum("cost") };
}

async function measured(lilo: Lilo, run: () => Promise<unknown>): Promise<Sample> {
  const before = lilo.usage.summary().total;
  await run();
  await lilo.idle();
  return diff(before, lilo.usage.summary().total);
}

async function main(): Promise<void> {
  const fake = await startFakeAnthropic();
  fake.replyAlways(reply);
  const clock = fixedClock("2026-12-01T08:00:00Z");
  const t = makeTestLilo(
    { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.baseURL, LILO_CHAT_MODEL: "anthropic:claude-sonnet-4-5", LILO_USER_NAMES: "chris=Christian" },
    { clock },
  );
  const { lilo } = t;
  lilo.push.registerTransport(recordingTransport());
  lilo.push.optIn("chris", { transport: "fake", chatId: "1" });
  const ordinary: Sample[] = [];
  const lookup: Sample[] = [];
  for (let i = 0; i < 50; i++) {
    clock.advance(4 * 60_000);
    const isLookup = i % 10 === 9;
    const text = isLookup ? LOOKUPS[Math.floor(i / 10) % LOOKUPS.length]! : `${TOPICS[i % TOPICS.length]} (${i + 1})`;
    (isLookup ? lookup : ordinary).push(await measured(lilo, () => lilo.handleMessage({ userId: "chris", text })));
  }
  const jobs: Record<string, Sample> = {};
  clock.advance(10 * 3_600_000);
  jobs.diary = await measured(lilo, () => lilo.diary.run("chris"));
  jobs.reflection = await measured(lilo, () => lilo.reflection.run("chris"));
  jobs.greeting = await measured(lilo, () => lilo.greeting.sendNow("chris"));

  const row = (label: string, m: ReturnType<typeof mean>) =>
    `| ${label.padEnd(26)} | ${String(m.n).padStart(4)} | ${Math.round(m.input).toLocaleString("en").padStart(8)} | ${Math.round(m.cached)
      .toLocaleString("en")
      .padStart(8)} | ${Math.round(m.output).toLocaleString("en").padStart(7)} | ${`$${m.cost.toFixed(4)}`.padStart(9)} |`;
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log("| per                        |    n | input    | cached   | output  | cost      |");
  console.log("|----------------------------|-----:|---------:|---------:|--------:|----------:|");
  console.log(row("ordinary turn", mean(ordinary)));
  console.log(row("turn with one lookup", mean(lookup)));
  for (const [name, s] of Object.entries(jobs)) console.log(row(`job run: ${name}`, mean([s])));
  console.log(row("job run (mean)", mean(Object.values(jobs))));
  console.log(
    "(tokens counted at ~4 characters each by the fake server, which caches any marked prefix — Anthropic itself only from 1,024 tokens; cost at claude-sonnet-4-5 list prices)",
  );
  await t.cleanup();
  await fake.close();
}

await main();
