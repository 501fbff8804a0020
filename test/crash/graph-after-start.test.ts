import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrashWorld, until, type Proc } from "./world.ts";
import { createLilo, loadConfig, type ChatModel } from "../../core/index.ts";
import { EmbeddedIndex } from "../../core/foundation/providers/embedded-index/embedded-index.ts";
import { openLiloDatabase } from "../../core/foundation/store/db.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";

const MESSAGES = 300;
const GRAPH_MIN = "100";
const IN_USE = /saved vector graph of a messages partition is in use/;
const unusedModel: ChatModel = { provider: "test", model: "none", complete: () => Promise.reject(new Error("no model call while filling")) };

/**
 * The real bot process over a chat log whose HNSW graph was saved with the
 * vector snapshot: its start (database, index, chats connected) does not
 * wait for the graph, which is read right after, while it already answers.
 */
describe("the bot reads its saved vector graph once its start is over", () => {
  let w: CrashWorld;
  let bot: Proc | undefined;

  beforeAll(async () => {
    w = await CrashWorld.create();
    w.extraEnv = { LILO_LOG_LEVEL: "debug", LILO_MESSAGE_GRAPH_MIN_SIZE: GRAPH_MIN, MATRIX_HOMESERVER_URL: "", MATRIX_ACCESS_TOKEN: "" };
    // Chris's chat log, indexed with the graph built at once and saved on close, as a bot that ran a while leaves it.
    const config = loadConfig(w.env());
    const db = openLiloDatabase(config);
    const index = new EmbeddedIndex(db, { messageGraphMinSize: Number(GRAPH_MIN), graphBuild: "inline" });
    const lilo = createLilo(config, { db, vectorIndex: index, embedder: new HashEmbedder(64), chatModel: unusedModel });
    const start = Date.UTC(2025, 0, 1);
    lilo.recall.importChat(
      Array.from({ length: MESSAGES }, (_, i) => ({
        userId: "chris",
        role: i % 2 ? ("assistant" as const) : ("user" as const),
        text: `Nachricht ${i} über Tee, Regen und den Garten`,
        createdAt: new Date(start + i * 60_000).toISOString(),
      })),
    );
    await lilo.recall.indexMessages("chris");
    expect(index.copyState().graphs).toBe(1);
    await lilo.close();
    await index.close();
    db.close();
  }, 60_000);
  afterAll(async () => {
    if (bot && bot.child.exitCode === null) await w.stop(bot);
    await w?.close();
  });

  it("connects its chats before the saved graph is read, then reads it without building it again", async () => {
    bot = await w.startBot(/telegram adapter running/);
    await until(
      () => IN_USE.test(bot!.output()),
      20_000,
      () => bot!.output().slice(-2000),
    );
    const out = bot.output();
    expect(out.search(/telegram adapter running/)).toBeLessThan(out.search(IN_USE));
    expect(out).not.toMatch(/could not be loaded/);
    expect(await w.stop(bot)).toBe(0);
  });
});
