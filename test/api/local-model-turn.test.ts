/**
 * Whole turns on Lilo's own model (LILO_CHAT_MODEL=local:<file.gguf>): the
 * real node-llama-cpp on a tiny random-weight GGUF, nothing fake in between.
 * The answer is stored; the extraction after it runs on the same model in
 * memory, under the grammar of its zod schema, so its JSON parses on the
 * first try even though the weights are noise. Five users at once queue on
 * the one model.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTinyGguf } from "../fixtures/tiny-gguf.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { LocalModels } from "../../core/internal.ts";
import { fixedClock, loadConfig, type Logger } from "../../core/index.ts";

const USERS = ["anna", "ben", "chris", "dora", "emil"];

describe("a Lilo whose chat model is her own local model", () => {
  let dir: string;
  let file: string;
  let t: TestLilo;
  let local: LocalModels;
  const warnings: string[] = [];
  const logger: Logger = { debug: () => {}, info: () => {}, warn: (msg) => void warnings.push(msg), error: () => {} };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-local-turn-"));
    // Noise that ends its free-text turns after a few tokens, as a trained model would; JSON is still held to its grammar.
    file = (await createTinyGguf(join(dir, "tiny.gguf"), { endOfTurnScale: 2 })).path;
    const env = {
      LILO_CHAT_MODEL: `local:${file}`,
      LILO_USER_NAMES: USERS.map((u) => `${u}=${u[0]!.toUpperCase()}${u.slice(1)}`).join(","),
      // Long enough for the extraction's JSON even when noise fills every string to its bound.
      LILO_MODEL_MAX_TOKENS: "768",
      LILO_LOCAL_THREADS: "1",
      LILO_LOCAL_GPU: "off",
      LILO_LOCAL_OFFLINE: "true",
      // The same draws on every run: whether noise answers a turn with nothing at all is not left to chance.
      LILO_LOCAL_SEED: "1",
    };
    const config = loadConfig({ LILO_DATA_DIR: dir, ...env });
    // The engine the Lilo builds from these variables, held here to look inside.
    local = new LocalModels(config.local, config.modelCall.maxTokens, logger);
    t = makeTestLilo(env, { clock: fixedClock("2026-12-03T18:00:00Z"), logger, localModels: local });
  });

  afterAll(async () => {
    await t.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves a whole turn on the local model: the answer stored, the extraction's JSON parsed at the first try", async () => {
    const r = await t.lilo.handleMessage({ userId: "chris", text: "Ich trinke morgens gerne Kaffee mit Hafermilch." });
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.model).toBe(`local:${file}`);
    expect(r.answerMessageId).toBeGreaterThan(0);
    await t.lilo.idle();
    // Two requests on the one engine: the answer and the extraction.
    expect(local.shared().served).toBe(2);
    expect(warnings).not.toContain("extraction answer unusable after one retry");
    const problems = t.lilo.maintenance.modelProblems();
    expect(problems["extraction:retried"]).toBeUndefined();
    expect(problems["extraction:repaired"]).toBeUndefined();
  }, 60_000);

  it("five users at once: every turn answered, one model in memory, the queue empty afterwards", async () => {
    const before = local.shared().served;
    const calls = () => new Map(t.lilo.usage.summary({ by: "role" }).groups.map((r) => [r.key, r.calls]));
    const ledgerBefore = calls();
    const results = await Promise.all(USERS.map((userId) => t.lilo.handleMessage({ userId, text: `Hallo, ich bin ${userId} und mag Musik.` })));
    for (const r of results) expect(r.ok, r.error?.message).toBe(true);
    await t.lilo.idle();
    // Each user's answer and its extraction on the one engine; which turns noise answers emptily (and so asks
    // again) depends on the order the queue served them: counted, not forbidden.
    const ledger = calls();
    const added = (role: string) => (ledger.get(role) ?? 0) - (ledgerBefore.get(role) ?? 0);
    // A noise answer that is empty or markers only is asked once more (answer.ts): one or two chat calls a turn.
    expect(added("chat")).toBeGreaterThanOrEqual(5);
    expect(added("chat")).toBeLessThanOrEqual(10);
    expect(added("extraction")).toBe(5);
    const all = [...ledger.keys()].reduce((n, role) => n + added(role), 0);
    expect(local.shared().served - before).toBe(all);
    expect(local.shared().pending).toBe(0);
    expect(local.shared().isLoaded).toBe(true);
    expect(warnings).not.toContain("extraction answer unusable after one retry");
    expect(t.lilo.maintenance.modelProblems()["extraction:retried"]).toBeUndefined();
  }, 120_000);
});
