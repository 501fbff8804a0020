import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLilo, loadConfig, type Lilo } from "../../../core/index.ts";
import { HashEmbedder } from "../../../core/foundation/providers/hash-embedder.ts";
import { openDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { ChatSearchTable, type CandidateRow } from "../../../core/foundation/store/chat-search.ts";

/**
 * Without time bounds the chat log's keyword candidates are ranked inside
 * FTS5 and their rows read afterwards, a batch at a time (a long log's
 * thousands of matches no longer each cost a join). They must come out
 * exactly as the joined query gives them — same rows, scores and order —
 * with the running conversation, forgotten messages and other users left out.
 * The ranked matches come from FTS5 a page at a time (`ORDER BY … LIMIT`);
 * a table with pages of 5 crosses many page borders.
 */
describe("chat-log keyword candidates ranked in FTS5, rows read after", () => {
  let dir: string;
  let lilo: Lilo;
  let db: Db;
  let table: ChatSearchTable;
  const words = ["kino", "pizza", "garten", "hund", "urlaub", "oma"];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-ranked-"));
    const config = loadConfig({ LILO_DATA_DIR: dir });
    db = openDatabase(config.dbPath);
    lilo = createLilo(config, { db, embedder: new HashEmbedder(32) });
    // 900 messages in conversations of ten (a pause of a day between them), for two users: hundreds of matches per word.
    const msgs = Array.from({ length: 900 }, (_, i) => ({
      userId: i % 3 ? "chris" : "anna",
      role: i % 2 ? ("assistant" as const) : ("user" as const),
      text: `${words[i % 6]} ${words[(i >> 1) % 6]} ${i % 4 ? "" : words[(i >> 2) % 6]} Nachricht ${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 10) * 86_400_000 + (i % 10) * 60_000).toISOString(),
    }));
    lilo.recall.importChat(msgs);
    db.prepare(`UPDATE messages SET redacted_at = '2026-06-01T00:00:00Z' WHERE id % 17 = 0`).run(); // forgotten messages
    table = new ChatSearchTable(db);
  });
  afterAll(async () => {
    await lilo.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const take = (it: Iterable<CandidateRow>, n: number) => {
    const out: CandidateRow[] = [];
    for (const r of it) {
      out.push(r);
      if (out.length >= n) break;
    }
    return out;
  };

  it("equals the joined query row for row, filters applied, read only as far as asked", () => {
    const running = (db.prepare(`SELECT conversation_id FROM messages WHERE user_id = 'chris' ORDER BY id DESC LIMIT 1`).pluck().get() as number) ?? 0;
    const redacted = new Set(db.prepare(`SELECT id FROM messages WHERE redacted_at IS NOT NULL`).pluck().all() as number[]);
    const anna = new Set(db.prepare(`SELECT id FROM messages WHERE user_id = 'anna'`).pluck().all() as number[]);
    for (const match of ['"kino"*', '"pizza"* OR "hund"*', '"oma"* OR "garten"* OR "urlaub"*', '"nachricht"*']) {
      for (const [excludeConversationId, paged] of [
        [undefined, table],
        [running, table],
        [running, new ChatSearchTable(db, 5)],
      ] as const) {
        const f = { userId: "chris", match, contextWeight: 0.5, excludeConversationId };
        const all = [...paged.candidates(f)];
        // Open time bounds take the joined query: the reference.
        const joined = [...table.candidates({ ...f, from: "0000", to: "9999" })];
        expect(all, match).toEqual(joined);
        if (match === '"nachricht"*')
          expect(all.length).toBeGreaterThan(400); // several batches of rows
        else expect(all.length).toBeGreaterThan(20);
        for (const n of [1, 5, 6, 50, 200]) expect(take(paged.candidates(f), n)).toEqual(joined.slice(0, n));
        expect(all.filter((r) => redacted.has(r.id) || anna.has(r.id) || r.conversation_id === excludeConversationId)).toEqual([]);
        for (let i = 1; i < all.length; i++) {
          const [a, b] = [all[i - 1]!, all[i]!];
          expect(a.score > b.score || (a.score === b.score && a.id > b.id)).toBe(true);
        }
      }
    }
  });

  it("finds nothing for a user without messages", () => {
    expect([...table.candidates({ userId: "nobody", match: '"kino"*', contextWeight: 0.5 })]).toEqual([]);
  });
});
