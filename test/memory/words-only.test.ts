import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddingModelMissingError } from "../../core/foundation/errors.ts";
import { fixedClock, type Embedder, type Logger } from "../../core/index.ts";
import { ControlledEmbedder } from "../fakes/controlled-embedder.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { fakeAnthropicEnv, isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../helpers/test-lilo.ts";

/** An embedding model whose files are missing until `copied()`; counts how often it was tried. */
class MissingModel implements Embedder {
  readonly id = "test/missing";
  tries = 0;
  private there = false;
  constructor(private readonly real = new ControlledEmbedder(64)) {}
  copied(): void {
    this.there = true;
  }
  async dimension(): Promise<number> {
    this.tries++;
    if (!this.there) throw new EmbeddingModelMissingError("not there", "its files are not in the folder", "/models/test/missing");
    return this.real.dimension();
  }
  embed(texts: string[]): Promise<Float32Array[]> {
    return this.there ? this.real.embed(texts) : Promise.reject(new Error("embed called without the model"));
  }
}

describe("recall by words while the embedding model is missing", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let model: MissingModel;
  const warnings: string[] = [];
  const infos: string[] = [];
  const logger: Logger = { debug() {}, info: (m) => void infos.push(m), warn: (m) => void warnings.push(m), error() {} };
  beforeEach(async () => {
    warnings.length = 0;
    infos.length = 0;
    fake = await startFakeAnthropic();
    fake.replyAlways((b) => (isExtraction(b.system) ? NO_EXTRACTION : "Gern."));
    model = new MissingModel();
    t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_EMBEDDING_RETRY_SECONDS: "0.01" }), {
      embedder: model,
      logger,
      clock: fixedClock("2026-12-02T10:00:00Z"),
    });
  });
  afterEach(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("stores a note without its vector and puts it on the sheet by its words; the model is tried once, not per message, and named once in the log", async () => {
    await t.lilo.warmUp();
    const note = await t.lilo.memory.add({ text: "Christian trinkt gern Rooibos", userId: "owner" });
    expect(note).toMatchObject({ added: true });
    for (const text of ["Was weißt du über Rooibos?", "Und sonst, Rooibos?"]) expect((await t.lilo.handleMessage({ userId: "owner", text })).ok).toBe(true);
    const sheet = fake.requests.filter((r) => !isExtraction(r.system)).at(-1)!.system ?? "";
    expect(sheet).toContain("Christian trinkt gern Rooibos");
    expect(model.tries).toBe(1);
    expect(warnings).toEqual([
      "recall by words only: embedding model test/missing not available — its files are not in the folder; copy it to /models/test/missing",
    ]);
  });

  it("once the model is copied in, the retry loads it and the reindex gives the note stored meanwhile its vector; the state turns full", async () => {
    await t.lilo.memory.add({ text: "Christian trinkt gern Rooibos", userId: "owner" });
    const stop = new AbortController();
    const ready = t.lilo.maintenance.whenEmbedderReady(stop.signal);
    await new Promise((r) => setTimeout(r, 50));
    expect(t.lilo.maintenance.recallState()).toMatchObject({ mode: "words-only", model: "test/missing", folder: "/models/test/missing" });
    model.copied();
    expect(await ready).toBe(true);
    expect(t.lilo.maintenance.recallState()).toMatchObject({ mode: "catching-up" });
    expect(await t.lilo.maintenance.resumeReindex()).toMatchObject({ finished: true, done: 1 });
    expect(t.lilo.maintenance.recallState()).toMatchObject({ mode: "full", model: "test/missing" });
    expect(await t.lilo.maintenance.check()).toMatchObject({ rows: 1, vectors: 1, rowsWithoutVector: [] });
    expect(infos).toContain("embedding model test/missing loaded: recall by words and meaning again; embedding what was stored without it in the background");
  });
});
