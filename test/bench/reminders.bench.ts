/**
 * The reminders row of `npm run bench` (alone: BENCH_ONLY=reminders):
 * `BENCH_REMINDERS` pending reminders (default 10,000) over 1,000 persons,
 * 500 of them due in the same minute. Measured: the start-up cost of a Lilo
 * over that table against an empty one (its first pass looks up the next
 * due time), the lateness of the 500 once their minute comes (from the
 * scheduler's pass to each send, through the push outbox to an in-process
 * transport), and one reminder due among all the others.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pct } from "./bench-kit.ts";
import { createLilo, fixedClock, loadConfig, type ChatModel, type Embedder, type Lilo } from "../../core/index.ts";

const unusedModel: ChatModel = { provider: "bench", model: "none", complete: () => Promise.reject(new Error("the benchmark never calls a model")) };
const PERSONS = 1_000;
const DUE_TOGETHER = 500;
const START = "2025-12-05T10:00:00Z";

/** A Lilo over `dir` whose pushes go to an in-process transport that notes when each was sent. */
function open(dir: string, embedder: Embedder, clock: ReturnType<typeof fixedClock>, sent: number[]): Lilo {
  const config = loadConfig({ LILO_DATA_DIR: dir, LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de", LILO_REMINDER_MAX_PENDING: "1000" });
  const lilo = createLilo(config, { embedder, chatModel: unusedModel, clock });
  lilo.push.registerTransport({ name: "bench", send: async () => void sent.push(performance.now()) });
  return lilo;
}

const f = (x: number) => x.toFixed(2);

/** Prints the reminders row. */
export async function runRemindersBench(embedder: Embedder): Promise<void> {
  const n = Number(process.env.BENCH_REMINDERS ?? 10_000);
  const dirs = [mkdtempSync(join(tmpdir(), "lilo-bench-reminders-")), mkdtempSync(join(tmpdir(), "lilo-bench-reminders-empty-"))];
  try {
    const clock = fixedClock(START);
    const sent: number[] = [];
    let lilo = open(dirs[0]!, embedder, clock, sent);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      // The first 500 in the same minute (30 minutes ahead), the rest spread over the next week.
      const words = i < DUE_TOGETHER ? `in 30 Minuten Erinnerung ${i}` : `in ${31 + i - DUE_TOGETHER} Minuten Erinnerung ${i}`;
      const r = lilo.reminders.set({ userId: `p${i % PERSONS}`, words, transport: "bench", chatId: `c${i % PERSONS}`, source: "cli" });
      if (!r.ok) throw new Error(`not set: ${r.text}`);
    }
    const fillMs = performance.now() - t0;
    await lilo.close();

    const startUp = async (dir: string) => {
      const s = performance.now();
      const l = open(dir, embedder, clock, []);
      await l.reminders.runDue();
      const took = performance.now() - s;
      await l.close();
      return took;
    };
    const empty: number[] = [];
    const full: number[] = [];
    for (let i = 0; i < 5; i++) {
      empty.push(await startUp(dirs[1]!));
      full.push(await startUp(dirs[0]!));
    }

    lilo = open(dirs[0]!, embedder, clock, sent);
    clock.advance(30 * 60_000);
    const pass = performance.now();
    await lilo.reminders.runDue();
    const late = sent.map((t) => (t - pass) / 1000);
    const one = sent.length;
    clock.advance(60_000);
    const single = performance.now();
    await lilo.reminders.runDue();
    const singleMs = performance.now() - single;
    await lilo.close();

    console.log(`\nreminders: ${n.toLocaleString("en")} pending over ${PERSONS.toLocaleString("en")} persons (set in ${(fillMs / 1000).toFixed(1)} s)`);
    console.log(`  start-up to the first pass, median of 5: empty ${f(pct(empty, 50))} ms, ${n.toLocaleString("en")} pending ${f(pct(full, 50))} ms`);
    console.log(`  ${one} due in one minute: lateness p50 ${f(pct(late, 50))} s, p95 ${f(pct(late, 95))} s, last ${f(Math.max(...late))} s`);
    console.log(`  one more due among the rest: its pass ${f(singleMs)} ms (${sent.length - one} sent)`);
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
