import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { ChatLog } from "../../../core/foundation/store/chat-log.ts";
import { importMessages } from "../../../core/foundation/store/chat-import.ts";
import { MessageVectors } from "../../../core/memory/recall/message-vectors.ts";
import { ControlledEmbedder, basisVector } from "../../fakes/controlled-embedder.ts";

describe("message vectors (the meaning side of the chat-log search)", () => {
  let dir: string;
  let db: Db;
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function setup(n: number): { log: ChatLog; ids: number[] } {
    dir = mkdtempSync(join(tmpdir(), "lilo-mv-"));
    db = openDatabase(join(dir, "lilo.db"));
    const log = new ChatLog(db);
    const msgs = Array.from({ length: n }, (_, i) => ({
      userId: "chris",
      role: "user" as const,
      text: `Nachricht ${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }));
    return { log, ids: importMessages(db, log, msgs, 60) };
  }
  const count = (embedder?: string) =>
    (db.prepare(`SELECT count(*) AS n FROM message_vectors ${embedder ? "WHERE embedder = ?" : ""}`).get(...(embedder ? [embedder] : [])) as { n: number }).n;

  it("fills a batch per call, catches up on new messages, and one user's vectors never answer another", async () => {
    const { log } = setup(100);
    const e = new ControlledEmbedder(128);
    const v = new MessageVectors(db, e);
    expect(await v.catchUp("chris")).toBe(64); // newest first, one batch a turn
    expect(await v.catchUpAll("chris")).toBe(36);
    expect(count()).toBe(100);
    const conv = log.latestConversation("chris")!.id;
    log.append({
      userId: "anna",
      conversationId: log.conversationAt("anna", new Date("2026-02-01T00:00:00Z"), 60, null).id,
      role: "user",
      text: "Annas Geheimnis",
      createdAt: "2026-02-01T00:00:00Z",
    });
    log.append({ userId: "chris", conversationId: conv, role: "user", text: "Neu", createdAt: "2026-01-01T02:00:00Z" });
    expect(await v.catchUp("chris")).toBe(1);
    const hits = v.search("chris", (await e.embed(["Annas Geheimnis"]))[0]!, 200, () => true);
    expect(hits).toHaveLength(101);
    expect(hits.every((h) => h.score < 0.5)).toBe(true);
    expect(v.search("chris", (await e.embed(["Neu"]))[0]!, 1, () => true)[0]).toMatchObject({ score: expect.closeTo(1, 5) });
  });

  it("drops the vectors of another embedder and of an edited message, and rebuilds them", async () => {
    const { ids } = setup(3);
    await new MessageVectors(db, new ControlledEmbedder(16)).catchUpAll("chris");
    expect(count("controlled-16")).toBe(3);
    const other = new ControlledEmbedder(16, "Xenova/all-MiniLM-L6-v2");
    other.set("Nachricht 0", basisVector(16, 3));
    const v = new MessageVectors(db, other);
    expect(await v.catchUpAll("chris")).toBe(3);
    expect(count("controlled-16")).toBe(0);
    db.prepare(`UPDATE messages SET text = 'geändert' WHERE id = ?`).run(ids[1]);
    expect(count()).toBe(2);
    expect(v.search("chris", Float32Array.from(basisVector(16, 3)), 1, () => true)[0]?.id).toBe(ids[0]);
  });
});
