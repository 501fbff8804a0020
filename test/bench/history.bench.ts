/**
 * The history import row of `npm run bench`: a WhatsApp export of
 * `BENCH_HISTORY_MESSAGES` messages (default 100,000; two speakers, German
 * 24-hour dates, a multi-line message in every fifty, media lines) read,
 * planned and written into the chat log through `lilo import-history`'s own
 * use cases, then the time until recall on it answers (the user's keyword
 * index built) and until every message has its vector, and the process's
 * memory; then the background extraction over it with a fake model that
 * answers at once (one fact a call): calls and
 * tokens per 1,000 messages, calls per conversation, and the time the rest of
 * Lilo takes around the calls. Run alone with BENCH_ONLY=history.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { mb, sentence } from "./bench-kit.ts";
import { createLilo, loadConfig, type ChatModel, type Embedder } from "../../core/index.ts";
import type { ChatRequest, ChatResponse } from "../../core/foundation/ports/chat-model.ts";

/** The extraction's model: answers at once with one fact, counting calls and tokens (four characters a token). */
function fakeExtractionModel(): ChatModel & { calls: number; inputTokens: number; outputTokens: number } {
  const m = {
    provider: "bench",
    model: "fake",
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    complete: (request: ChatRequest): Promise<ChatResponse> => {
      const text = JSON.stringify({ facts: [{ text: `Mara mag Fakt ${m.calls}`, about: "Mara" }], profile: [], important: [] });
      const inputTokens = Math.ceil((request.system.length + request.messages.reduce((n, x) => n + x.content.length, 0)) / 4);
      const outputTokens = Math.ceil(text.length / 4);
      m.calls++;
      m.inputTokens += inputTokens;
      m.outputTokens += outputTokens;
      return Promise.resolve({ text, model: "fake", usage: { inputTokens, outputTokens } });
    },
  };
  return m;
}

/** A WhatsApp export of `n` messages, one every few minutes from 2019 on. */
function whatsAppExport(n: number): string {
  const lines: string[] = ["01.01.19, 09:00 - Nachrichten und Anrufe sind Ende-zu-Ende-verschlüsselt."];
  const two = (x: number) => String(x).padStart(2, "0");
  let t = Date.UTC(2019, 0, 1, 9, 0);
  for (let i = 0; i < n; i++) {
    t += (i % 40 === 0 ? 600 : 3) * 60_000;
    const d = new Date(t);
    const head = `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${String(d.getUTCFullYear()).slice(2)}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
    const body = i % 97 === 0 ? "<Medien ausgeschlossen>" : i % 50 === 0 ? `${sentence(i)}\n${sentence(i + 1)}` : sentence(i);
    lines.push(`${head} - ${i % 2 ? "Mara" : "Jonas"}: ${body}`);
  }
  return lines.join("\n");
}

/** Prints the history import row. */
export async function runHistoryBench(embedder: Embedder): Promise<void> {
  const n = Number(process.env.BENCH_HISTORY_MESSAGES ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), "lilo-bench-history-"));
  try {
    const config = loadConfig({ LILO_DATA_DIR: dir, LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de" });
    const model = fakeExtractionModel();
    const lilo = createLilo(config, { embedder, chatModel: model });
    const bytes = new TextEncoder().encode(whatsAppExport(n));
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const plan = lilo.history.plan(bytes, { fileName: "bench.txt", userId: "bench", me: "Jonas" });
    const t1 = performance.now();
    const done = lilo.history.apply(plan);
    const t2 = performance.now();
    const rssPeak = process.memoryUsage().rss;
    await lilo.recall.rank(sentence(n - 3), { userId: "bench", limit: 10 });
    const t3 = performance.now();
    console.log(`\nhistory import: WhatsApp export of ${n.toLocaleString("en")} messages (${mb(bytes.length)}), ${done.added.toLocaleString("en")} written`);
    console.log(
      `  read + plan ${((t1 - t0) / 1000).toFixed(1)} s, write to the chat log ${((t2 - t1) / 1000).toFixed(1)} s → chat log ${((t2 - t0) / 1000).toFixed(1)} s`,
    );
    console.log(
      `  first recall on it (the keyword index built) ${((t3 - t2) / 1000).toFixed(1)} s after the write; RSS +${mb(rssPeak - rss0)} while importing`,
    );
    const t6 = performance.now();
    await lilo.recall.indexMessages("bench");
    console.log(
      `  every message's vector (recall.indexMessages, this run's embedder) ${((performance.now() - t6) / 1000).toFixed(1)} s more: recall by meaning ready ${((performance.now() - t0) / 1000).toFixed(1)} s after the start`,
    );
    const again = lilo.history.plan(bytes, { fileName: "bench.txt", userId: "bench", me: "Jonas" });
    console.log(`  a second import of the same file: ${again.newMessages} new messages`);
    const conversations = new Set(plan.planned.map((r) => r.conversation)).size;
    const t4 = performance.now();
    await lilo.history.extract();
    const t5 = performance.now();
    const per1k = (x: number) => Math.round((x / done.added) * 1_000).toLocaleString("en");
    console.log(
      `  extraction (fake model): ${model.calls.toLocaleString("en")} calls for ${conversations.toLocaleString("en")} conversations (${(model.calls / conversations).toFixed(2)} a conversation), ${((t5 - t4) / 1000).toFixed(1)} s`,
    );
    console.log(`    per 1,000 messages: ${per1k(model.calls)} calls, ${per1k(model.inputTokens)} tokens in, ${per1k(model.outputTokens)} out`);
    await lilo.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
