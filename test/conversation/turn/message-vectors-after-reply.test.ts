import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { ControlledEmbedder } from "../../fakes/controlled-embedder.ts";
import { makeTestLilo, isExtraction, type TestLilo, fakeAnthropicEnv, NO_EXTRACTION } from "../../helpers/test-lilo.ts";
import { fixedClock } from "../../../core/index.ts";
import { readDb } from "../../helpers/read-db.ts";

/** An embedder that holds every batch of more than one text (the chat-log catch-up) until released. */
class HoldingEmbedder extends ControlledEmbedder {
  readonly held: string[][] = [];
  private release: (() => void) | undefined;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  override async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length > 1) {
      this.held.push([...texts]);
      await this.gate;
    }
    return super.embed(texts);
  }

  open(): void {
    this.release?.();
  }
}

/**
 * The chat log's message vectors are filled by an after-reply job, not on
 * the turn's path: the answer is there while the
 * catch-up still waits for the embedder, and after `idle()` every message
 * has its vector.
 */
describe("message vectors after the reply", () => {
  let fake: FakeAnthropic;
  let t: TestLilo;
  let embedder: HoldingEmbedder;
  const clock = fixedClock("2026-12-02T18:00:00Z");
  const count = (sql: string) => (readDb(t.lilo).get(sql) as { n: number }).n;

  beforeEach(async () => {
    fake = await startFakeAnthropic();
    fake.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Schön, dass du schreibst."));
    embedder = new HoldingEmbedder(64);
    t = makeTestLilo(fakeAnthropicEnv(fake), { clock, embedder });
  });
  afterEach(async () => {
    embedder.open();
    await t.cleanup();
    await fake.close();
  });

  it("fills the log's vectors after the reply, never on the turn's path", async () => {
    const { lilo } = t;
    lilo.recall.importChat(
      Array.from({ length: 10 }, (_, i) => ({
        userId: "chris",
        role: i % 2 ? ("assistant" as const) : ("user" as const),
        text: `Alte Nachricht ${i}`,
        createdAt: new Date(Date.UTC(2026, 10, 1, 10, i)).toISOString(),
      })),
    );

    // If the turn waited for the held catch-up, this would never resolve.
    const result = await lilo.handleMessage({ userId: "chris", text: "Hallo Lilo" });
    expect(result).toMatchObject({ ok: true, text: "Schön, dass du schreibst." });
    expect(count("SELECT count(*) AS n FROM message_vectors")).toBe(0);
    expect(readDb(lilo).all("SELECT kind, status FROM jobs WHERE kind = 'message-vectors'")).toEqual([{ kind: "message-vectors", status: "pending" }]);
    // The job catches up the newest messages first: this exchange, then the old log.
    expect(embedder.held).toHaveLength(1);
    expect(embedder.held[0]!.slice(0, 2)).toEqual(["Schön, dass du schreibst.", "Hallo Lilo"]);

    embedder.open();
    await lilo.idle();
    expect(count("SELECT count(*) AS n FROM messages")).toBe(12);
    expect(count("SELECT count(*) AS n FROM message_vectors")).toBe(12);
    expect(readDb(lilo).all("SELECT status FROM jobs WHERE kind = 'message-vectors'")).toEqual([{ status: "done" }]);
  });
});
