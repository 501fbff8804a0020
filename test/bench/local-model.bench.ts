/**
 * `npm run bench:local`: Lilo's own model on this machine — load time,
 * first-token latency (a cold prompt, then the same persona prefix again from
 * the KV cache) and generation speed in tokens per second, through Lilo's
 * engine and the real node-llama-cpp. Without arguments it measures the tiny
 * random-weight GGUF of the tests (a smoke number for the machinery, not a
 * model); `LILO_BENCH_GGUF=/path/model.gguf` measures a real model, e.g. one
 * Lilo downloaded into data/models. BENCH_RUNS (default 5), LILO_LOCAL_THREADS
 * (default 0 = all cores).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { ChatHistoryItem } from "node-llama-cpp";
import { createTinyGguf } from "../fixtures/tiny-gguf.ts";
import { LocalModels } from "../../core/foundation/providers/local/local-models.ts";
import { silentLogger } from "../../core/foundation/ports/logger.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const THREADS = Number(process.env.LILO_LOCAL_THREADS ?? 0);
const OUTPUT = 64;
const dir = mkdtempSync(join(tmpdir(), "lilo-bench-local-"));
const file = process.env.LILO_BENCH_GGUF ?? (await createTinyGguf(join(dir, "tiny.gguf"), { endOfTurnScale: 0 })).path;
const local = new LocalModels({ dir, offline: true, gpu: "auto", threads: THREADS, contextTokens: 4096, idleMinutes: 15 }, OUTPUT, silentLogger);
const engine = local.shared();

// A persona of realistic length (~1,500 characters) in front of a changing message, as on Lilo's cheat sheet.
const persona = `Du bist Lilo, eine warmherzige Begleiterin, die sich an das Leben ihres Gegenübers erinnert. ${"Du antwortest kurz, freundlich und auf Deutsch. ".repeat(30)}`;
const history = (i: number): ChatHistoryItem[] => [
  { type: "system", text: persona },
  { type: "user", text: `Nachricht ${i}: Wie war dein Tag? Erzähl mir etwas über Musik.` },
];

interface Run {
  firstTokenMs: number;
  tokens: number;
  generateMs: number;
}

async function once(i: number): Promise<Run> {
  return engine.run(file, async (m) => {
    const start = performance.now();
    let first = 0;
    let tokens = 0;
    await m.chats.chat.generateResponse(history(i), {
      maxTokens: OUTPUT,
      temperature: 0,
      onToken: (t) => {
        if (tokens === 0) first = performance.now();
        tokens += t.length;
      },
    });
    const end = performance.now();
    return { firstTokenMs: first - start, tokens, generateMs: end - first };
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, threads ${THREADS || "all"}`,
);
console.log(`model: ${file}`);
const loadStart = performance.now();
const cold = await once(0);
console.log(`load + first answer: ${((performance.now() - loadStart) / 1000).toFixed(2)} s (first token of a cold prompt: ${cold.firstTokenMs.toFixed(0)} ms)`);
const runs: Run[] = [];
for (let i = 1; i <= RUNS; i++) runs.push(await once(i));
const perSecond = runs.filter((r) => r.tokens > 1).map((r) => ((r.tokens - 1) / r.generateMs) * 1000);
console.log(`first token, persona prefix from the KV cache: p50 ${median(runs.map((r) => r.firstTokenMs)).toFixed(0)} ms (${RUNS} runs)`);
console.log(`generation: p50 ${median(perSecond).toFixed(1)} tokens/s over up to ${OUTPUT} tokens`);
await local.close();
rmSync(dir, { recursive: true, force: true });
