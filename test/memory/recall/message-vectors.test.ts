import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { ChatLog } from "../../../core/foundation/store/chat-log.ts";
import { importMessages } from "../../../core/foundation/store/chat-import.ts";
import { MessageVectors } from "../../../core/memory/recall/message-vectors.ts";
import { EmbeddedIndex } from "../../../core/foundation/providers/embedded-index/embedded-index.ts";
import { HashEmbedder } from "../../../core/foundation/providers/hash-embedder.ts";
import type { Embedder } from "../../../core/foundation/ports/embedder.ts";
import { ControlledEmbedder, basisVector } from "../../fakes/controlled-embedder.ts";

describe("message vectors (the meaning side of the chat-log search, in the vector index)", () => {
  let dir: string;
  let db: Db;
  let index: EmbeddedIndex;
  afterEach(async () => {
    await index.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function setup(n: number, text = (i: number) => `Nachricht ${i}`): { log: ChatLog; ids: number[] } {
    dir = mkdtempSync(join(tmpdir(), "lilo-mv-"));
    db = openDatabase(join(dir, "lilo.db"));
    const log = new ChatLog(db);
    const msgs = Array.from({ length: n }, (_, i) => ({
      userId: "chris",
      role: "user" as const,
      text: text(i),
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i * 7)).toISOString(),
    }));
    return { log, ids: importMessages(db, log, msgs, 60) };
  }
  function vectors(embedder: Embedder): MessageVectors {
    index = new EmbeddedIndex(db);
    let ready: Promise<void> | undefined;
    return new MessageVectors(db, embedder, index, async () => {
      ready ??= embedder.dimension().then((d) => index.init(d, embedder.id));
      await ready;
    });
  }
  const marks = (embedder?: string) =>
    (db.prepare(`SELECT count(*) AS n FROM message_vectors ${embedder ? "WHERE embedder = ?" : ""}`).get(...(embedder ? [embedder] : [])) as { n: number }).n;
  const inIndex = async () => (await index.keys()).filter((k) => k.store === "messages").length;
  const all = () => true;
  /** Scores rounded, ids grouped by score: a ranking that does not depend on how ties happen to be ordered. */
  const ranked = (hits: { id: number; score: number }[]) => {
    const groups = new Map<string, number[]>();
    for (const h of hits) groups.set(h.score.toFixed(5), [...(groups.get(h.score.toFixed(5)) ?? []), h.id]);
    return [...groups].map(([s, ids]) => `${s}:${ids.sort((a, b) => a - b).join(",")}`);
  };

  it("embeds one batch of the newest messages per catch-up call", async () => {
    setup(100);
    const v = vectors(new ControlledEmbedder(128));
    expect(await v.catchUp("chris")).toBe(64); // newest first, one batch a turn
    expect(await v.catchUpAll("chris")).toBe(36);
    expect(marks()).toBe(100);
    expect(await inIndex()).toBe(100);
  });

  it("catches up on a message added after the log was embedded", async () => {
    const { log } = setup(100);
    const e = new ControlledEmbedder(128);
    const v = vectors(e);
    await v.catchUpAll("chris");
    log.append({ userId: "chris", conversationId: log.latestConversation("chris")!.id, role: "user", text: "Neu", createdAt: "2026-01-01T02:00:00Z" });
    expect(await v.catchUp("chris")).toBe(1);
    expect((await v.search("chris", (await e.embed(["Neu"]))[0]!, 1, all))[0]).toMatchObject({ score: expect.closeTo(1, 5) });
  });

  it("never answers one user's search with another user's vectors", async () => {
    const { log } = setup(100);
    const e = new ControlledEmbedder(128);
    const v = vectors(e);
    await v.catchUpAll("chris");
    log.append({
      userId: "anna",
      conversationId: log.conversationAt("anna", new Date("2026-02-01T00:00:00Z"), 60, null).id,
      role: "user",
      text: "Annas Geheimnis",
      createdAt: "2026-02-01T00:00:00Z",
    });
    expect(await v.catchUp("anna")).toBe(1);
    const hits = await v.search("chris", (await e.embed(["Annas Geheimnis"]))[0]!, 200, all);
    expect(hits).toHaveLength(100);
    expect(hits.every((h) => h.score < 0.5)).toBe(true);
  });

  it("replaces the vectors of another embedder after a reindex", async () => {
    const { ids } = setup(3);
    const first = vectors(new ControlledEmbedder(16));
    await first.catchUpAll("chris");
    expect(marks("controlled-16")).toBe(3);
    await index.close();
    await index.reset(16, "Xenova/all-MiniLM-L6-v2"); // `lilo reindex` for the new model
    const other = new ControlledEmbedder(16, "Xenova/all-MiniLM-L6-v2");
    other.set("Nachricht 0", basisVector(16, 3));
    const v = vectors(other);
    expect(await v.catchUpAll("chris")).toBe(3);
    expect(marks("controlled-16")).toBe(0);
    expect((await v.search("chris", Float32Array.from(basisVector(16, 3)), 1, all))[0]?.id).toBe(ids[0]);
  });

  it("drops the vector of an edited message", async () => {
    const { ids } = setup(3);
    await vectors(new ControlledEmbedder(16)).catchUpAll("chris");
    db.prepare(`UPDATE messages SET text = 'geändert' WHERE id = ?`).run(ids[1]);
    expect(marks()).toBe(2);
  });

  /** 600 messages embedded by the hash embedder, a query vector and the exact ranking to compare with. */
  async function scanned() {
    const { log, ids } = setup(600, (i) => `Eintrag ${i}: ${["Kino", "Garten", "Oma", "Pizza", "Urlaub", "Hund"][i % 6]} ${i % 11} ${i % 13}`);
    const e = new HashEmbedder(64);
    const v = vectors(e);
    await v.catchUpAll("chris");
    const texts = (
      db.prepare(`SELECT id, text, conversation_id AS conv, created_at AS at FROM messages ORDER BY id`).all() as {
        id: number;
        text: string;
        conv: number;
        at: string;
      }[]
    ).filter((r) => ids.includes(r.id));
    const vecs = await e.embed(texts.map((t) => t.text));
    const q = (await e.embed(["Garten Oma 7"]))[0]!;
    // Exact cosines, best first; equal scores (the hash embedder makes ties) count as one rank, listed by id.
    const exact = (keep: (r: (typeof texts)[number]) => boolean, k: number) =>
      ranked(
        texts
          .map((t, i) => ({ id: t.id, score: vecs[i]!.reduce((n, x, d) => n + x * q[d]!, 0), keep: keep(t) }))
          .filter((x) => x.keep)
          .sort((a, b) => b.score - a.score)
          .slice(0, k),
      );
    return { log, v, texts, q, exact };
  }

  it("ranks like an exact scan", async () => {
    const { v, q, exact } = await scanned();
    expect(ranked(await v.search("chris", q, 20, all))).toEqual(exact(() => true, 20));
  });

  it("never answers from the running conversation", async () => {
    const { log, v, q, exact } = await scanned();
    // Given to the index and to keep.
    const running = log.latestConversation("chris")!.id;
    const notRunning = (p: { conversationId: number }) => p.conversationId !== running;
    expect(ranked(await v.search("chris", q, 20, notRunning, { excludeConversationId: running }))).toEqual(exact((t) => t.conv !== running, 20));
  });

  it("honours a narrow time window, whether the index is told or only the filter knows it", async () => {
    const { v, texts, q, exact } = await scanned();
    const from = texts[100]!.at;
    const to = texts[130]!.at;
    const inWindow = (p: { createdAt: string }) => p.createdAt >= from && p.createdAt < to;
    expect(ranked(await v.search("chris", q, 10, inWindow, { from, to }))).toEqual(exact((t) => t.at >= from && t.at < to, 10));
    expect(ranked(await v.search("chris", q, 10, inWindow))).toEqual(exact((t) => t.at >= from && t.at < to, 10));
  });

  it("removes one message's vector for good: no catch-up embeds it again", async () => {
    const { v, q, exact } = await scanned();
    // A deleted or redacted message.
    const best = (await v.search("chris", q, 1, all))[0]!.id;
    await v.remove("chris", best);
    expect(ranked(await v.search("chris", q, 20, all))).toEqual(exact((t) => t.id !== best, 20));
    expect(await inIndex()).toBe(599);
    expect(await v.catchUp("chris")).toBe(0); // its mark stays until its text changes
  });

  it("moves the vectors an older Lilo kept in SQLite into the index without embedding again", async () => {
    const { ids } = setup(5);
    const e = new ControlledEmbedder(16);
    // The table the migration renamed, as an older Lilo filled it.
    const put = db.prepare(`INSERT INTO message_vectors_legacy VALUES (?, 'chris', ?, ?)`);
    ids.forEach((id, i) => put.run(id, i < 4 ? e.id : "old-model", Buffer.from(Float32Array.from(basisVector(16, i)).buffer)));
    const v = vectors(e);
    expect(await v.catchUpAll("chris")).toBe(1); // only the message whose old vector was of another model
    expect(e.calls.flat()).toEqual(["Nachricht 4"]);
    expect((await v.search("chris", Float32Array.from(basisVector(16, 2)), 1, all))[0]?.id).toBe(ids[2]);
    expect((db.prepare(`SELECT count(*) AS n FROM message_vectors_legacy`).get() as { n: number }).n).toBe(0);
  });
});
