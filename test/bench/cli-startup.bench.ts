/**
 * `npm run bench:cli`: start-up of the real `lilo` command, spawned as a new
 * process like a user's shell does: `lilo --help` (goal ≤ 0.3 s) and
 * `lilo rules list` on a fresh database (goal ≤ 0.6 s), compiled (dist/cli,
 * the default) and through tsx (`LILO_CLI_TSX=1`, the fallback), beside a bare
 * `node -e 0` for the machine's floor. Prints p50 and p95 of BENCH_RUNS runs
 * (default 10).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const dir = mkdtempSync(join(tmpdir(), "lilo-bench-cli-"));
const env = { PATH: process.env.PATH ?? "", LILO_DATA_DIR: dir, LILO_HOME: dir };
// A read command refuses a home without a database; an empty file is one, and the first run gives it its schema.
writeFileSync(join(dir, "lilo.db"), "");

function time(args: string[], extra: Record<string, string> = {}): number {
  const start = performance.now();
  execFileSync(process.execPath, args, { env: { ...env, ...extra }, stdio: "ignore" });
  return performance.now() - start;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

function measure(label: string, args: string[], extra: Record<string, string> = {}): void {
  time(args, extra); // warm-up: builds dist/cli if a source changed, creates the database
  const runs = Array.from({ length: RUNS }, () => time(args, extra)).sort((a, b) => a - b);
  const s = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
  console.log(`${label.padEnd(34)} p50 ${s(quantile(runs, 0.5))}   p95 ${s(quantile(runs, 0.95))}   (${RUNS} runs)`);
}

console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
try {
  measure("node -e 0 (floor)", ["-e", "0"]);
  measure("lilo --help", ["admin-cli/bin.js", "--help"]);
  measure("lilo rules list", ["admin-cli/bin.js", "rules", "list"]);
  measure("lilo --help (tsx fallback)", ["admin-cli/bin.js", "--help"], { LILO_CLI_TSX: "1" });
  measure("lilo rules list (tsx fallback)", ["admin-cli/bin.js", "rules", "list"], { LILO_CLI_TSX: "1" });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
