import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../core/foundation/store/db.ts";
import { keywordSearch } from "../../core/memory/keyword-search.ts";
import { ftsQuery } from "../../core/memory/recall/keyword-query.ts";
import { memoryTable } from "../helpers/memory-table.ts";

/**
 * The keyword side is scoped to the user inside the FTS5 query (each user's
 * rows in a rowid range of their own), and must rank exactly as bm25 over
 * the whole store filtered afterwards would: same rows, same scores.
 */
describe("keyword search scoped to the user inside FTS5", () => {
  let dir: string;
  let db: Db;
  const words = ["Kino", "Pizza", "Garten", "Hund", "Urlaub", "Oma", "Fahrrad", "Konzert"];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-kw-"));
    db = openDatabase(join(dir, "lilo.db"));
    const notes = memoryTable(db, "notes");
    for (let i = 0; i < 300; i++) {
      const user = ["chris", "anna", "ben"][i % 3]!;
      const text = `${words[i % 8]} ${words[(i * 3) % 8]} ${i % 5 === 0 ? words[(i * 7) % 8] : ""} Notiz ${i}`;
      notes.insert(user, text, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString());
    }
    notes.insert("anna", "Annas Geheimnis: Kino Kino Kino", "2026-02-01T00:00:00Z");
    // For comparison: bm25 over the whole store, filtered by user afterwards.
    db.exec(`CREATE VIRTUAL TABLE old_fts USING fts5(text, content='notes', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
             INSERT INTO old_fts(old_fts) VALUES ('rebuild');`);
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("ranks with the same bm25 scores as the whole-store index", () => {
    for (const q of ["Kino", "Pizza Garten", "Geheimnis", "Hund Oma Konzert"]) {
      const old = db
        .prepare(
          `SELECT s.id AS rowId, -bm25(old_fts) AS score FROM old_fts JOIN notes s ON s.id = old_fts.rowid
           WHERE old_fts MATCH ? AND s.user_id = ? ORDER BY score DESC, s.id DESC LIMIT 50`,
        )
        .all(ftsQuery([q]), "chris") as { rowId: number; score: number }[];
      const now = keywordSearch(db, "notes", "chris", q, 50);
      expect(now.map((h) => h.rowId)).toEqual(old.map((h) => h.rowId));
      now.forEach((h, i) => expect(h.score).toBeCloseTo(old[i]!.score, 9));
    }
  });

  it("never returns another user's rows", () => {
    for (const q of ["Kino", "Pizza Garten", "Geheimnis", "Hund Oma Konzert"]) {
      const now = keywordSearch(db, "notes", "chris", q, 50);
      const owners = new Set(now.map((h) => (db.prepare(`SELECT user_id FROM notes WHERE id = ?`).get(h.rowId) as { user_id: string }).user_id));
      expect([...owners].every((u) => u === "chris")).toBe(true);
    }
    expect(keywordSearch(db, "notes", "chris", "Geheimnis", 10)).toEqual([]);
    expect(keywordSearch(db, "notes", "anna", "Geheimnis", 10)).toHaveLength(1);
    expect(keywordSearch(db, "notes", "nobody", "Kino", 10)).toEqual([]);
  });

  it("stays in step with every change to a row (text, owner, deletion)", () => {
    const notes = memoryTable(db, "notes");
    const id = notes.insert("chris", "Zauberwort eins", "2026-03-01T00:00:00Z");
    expect(keywordSearch(db, "notes", "chris", "Zauberwort", 5).map((h) => h.rowId)).toEqual([id]);
    db.prepare(`UPDATE notes SET text = 'Hokuspokus zwei' WHERE id = ?`).run(id);
    expect(keywordSearch(db, "notes", "chris", "Zauberwort", 5)).toEqual([]);
    expect(keywordSearch(db, "notes", "chris", "Hokuspokus", 5).map((h) => h.rowId)).toEqual([id]);
    db.prepare(`UPDATE notes SET user_id = 'dora' WHERE id = ?`).run(id);
    expect(keywordSearch(db, "notes", "chris", "Hokuspokus", 5)).toEqual([]);
    expect(keywordSearch(db, "notes", "dora", "Hokuspokus", 5).map((h) => h.rowId)).toEqual([id]);
    notes.delete(id);
    expect(keywordSearch(db, "notes", "dora", "Hokuspokus", 5)).toEqual([]);
  });
});
