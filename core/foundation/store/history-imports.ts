/**
 * SQL of chat histories a person brought along: the import's own row, and its
 * messages written into the chat log in conversations of their own (an old
 * chat never joins a live conversation), each with the other party's name and
 * a key that makes a second import of the same messages a no-op.
 */
import type { Db } from "./db.ts";
import { prepared } from "./prepared.ts";
import type { Role } from "./chat-log.ts";
import { writeTransaction } from "./tx.ts";

/** One message to write. */
export interface HistoryRow {
  role: Role;
  /** The other party's name; null for the person's own lines. */
  speaker: string | null;
  text: string;
  createdAt: string;
  /** Speaker, time and text, hashed: the same message in a later export has the same key. */
  key: string;
  /** Messages of one chat whose gap stays under the pause share a conversation. */
  conversation: number;
}

/** One imported message as the background extraction reads it. */
export interface ImportedMessage {
  id: number;
  conversationId: number;
  role: Role;
  /** The other party's name; null for the person's own lines. */
  speaker: string | null;
  text: string;
  createdAt: string;
}

/** The memory tables an import's extraction writes into (topics: follow-ups of recent conversations). */
const DERIVED_TABLES = ["notes", "important", "profile", "topics"] as const;

/** An import as `lilo import-history` lists it. */
export interface HistoryImport {
  id: number;
  userId: string;
  format: string;
  fileName: string;
  fileHash: string;
  me: string;
  createdAt: string;
  messages: number;
  undoneAt: string | null;
}

interface RawImport {
  id: number;
  user_id: string;
  format: string;
  file_name: string;
  file_hash: string;
  me: string;
  created_at: string;
  messages: number;
  undone_at: string | null;
}

const toImport = (r: RawImport): HistoryImport => ({
  id: r.id,
  userId: r.user_id,
  format: r.format,
  fileName: r.file_name,
  fileHash: r.file_hash,
  me: r.me,
  createdAt: r.created_at,
  messages: r.messages,
  undoneAt: r.undone_at,
});

/** SQL access for history imports. */
export class HistoryImports {
  constructor(private readonly db: Db) {}

  /** Which of `keys` the user's chat log holds already. */
  knownKeys(userId: string, keys: string[]): Set<string> {
    const known = new Set<string>();
    const stmt = prepared(this.db, `SELECT 1 FROM messages WHERE user_id = ? AND import_key = ?`);
    for (const k of keys) if (stmt.get(userId, k)) known.add(k);
    return known;
  }

  /**
   * Writes the import's row and its new messages in one transaction (rows
   * sorted by the caller); returns the import's id and how many were new.
   */
  write(o: {
    userId: string;
    format: string;
    fileName: string;
    fileHash: string;
    me: string;
    now: string;
    rows: HistoryRow[];
    /** Runs inside the same transaction once the rows are in (the extraction's job is recorded with them, so a kill cannot split them). */
    within?: (written: { id: number; added: number }) => void;
  }): { id: number; added: number } {
    return writeTransaction(this.db, () => {
      const id = Number(
        prepared(this.db, `INSERT INTO history_imports (user_id, format, file_name, file_hash, me, created_at) VALUES (?, ?, ?, ?, ?, ?)`).run(
          o.userId,
          o.format,
          o.fileName,
          o.fileHash,
          o.me,
          o.now,
        ).lastInsertRowid,
      );
      const newConversation = prepared(
        this.db,
        `INSERT INTO conversations (user_id, started_at, last_message_at, start_model, history_import) VALUES (?, ?, ?, NULL, ?)`,
      );
      const touch = prepared(this.db, `UPDATE conversations SET last_message_at = ? WHERE id = ?`);
      const insert = prepared(
        this.db,
        `INSERT OR IGNORE INTO messages (user_id, conversation_id, role, text, created_at, updated_at, speaker, history_import, import_key)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const conversations = new Map<number, number>();
      let added = 0;
      for (const r of o.rows) {
        let conv = conversations.get(r.conversation);
        if (conv === undefined) {
          conv = Number(newConversation.run(o.userId, r.createdAt, r.createdAt, id).lastInsertRowid);
          conversations.set(r.conversation, conv);
        }
        const done = insert.run(o.userId, conv, r.role, r.text, r.createdAt, r.createdAt, r.speaker, id, r.key);
        if (done.changes) {
          added++;
          touch.run(r.createdAt, conv);
        }
      }
      prepared(
        this.db,
        `DELETE FROM conversations WHERE user_id = ? AND id IN (${[...conversations.values()].map(() => "?").join(",") || "NULL"}) AND NOT EXISTS (SELECT 1 FROM messages WHERE conversation_id = conversations.id)`,
      ).run(o.userId, ...conversations.values());
      prepared(this.db, `UPDATE history_imports SET messages = ? WHERE id = ?`).run(added, id);
      o.within?.({ id, added });
      return { id, added };
    });
  }

  /** The user's imports, newest first. */
  list(userId: string): HistoryImport[] {
    return (prepared(this.db, `SELECT * FROM history_imports WHERE user_id = ? ORDER BY id DESC`).all(userId) as RawImport[]).map(toImport);
  }

  get(userId: string, id: number): HistoryImport | undefined {
    const r = prepared(this.db, `SELECT * FROM history_imports WHERE user_id = ? AND id = ?`).get(userId, id) as RawImport | undefined;
    return r && toImport(r);
  }

  /** Ids of the import's messages not yet forgotten. */
  messageIds(userId: string, id: number): number[] {
    return (
      prepared(this.db, `SELECT id FROM messages WHERE user_id = ? AND history_import = ? AND redacted_at IS NULL ORDER BY id`).all(userId, id) as {
        id: number;
      }[]
    ).map((r) => r.id);
  }

  /** Marks the import undone and lets its messages' keys go, so a later import of the file adds them again. */
  markUndone(userId: string, id: number, now: string): void {
    writeTransaction(this.db, () => {
      prepared(this.db, `UPDATE history_imports SET undone_at = ? WHERE user_id = ? AND id = ?`).run(now, userId, id);
      prepared(this.db, `UPDATE messages SET import_key = NULL WHERE user_id = ? AND history_import = ?`).run(userId, id);
    });
  }

  /** The import's live messages after `afterId`, in the order they were written (conversation by conversation). */
  messagesAfter(userId: string, id: number, afterId: number, limit: number): ImportedMessage[] {
    return (
      prepared(
        this.db,
        `SELECT id, conversation_id, role, speaker, text, created_at FROM messages
           WHERE user_id = ? AND history_import = ? AND id > ? AND redacted_at IS NULL ORDER BY id LIMIT ?`,
      ).all(userId, id, afterId, limit) as { id: number; conversation_id: number; role: Role; speaker: string | null; text: string; created_at: string }[]
    ).map((r) => ({ id: r.id, conversationId: r.conversation_id, role: r.role, speaker: r.speaker, text: r.text, createdAt: r.created_at }));
  }

  /** When an imported conversation's last message was written, as the conversation row records it. */
  conversationEnd(userId: string, conversationId: number): string | undefined {
    const r = prepared(this.db, `SELECT last_message_at FROM conversations WHERE user_id = ? AND id = ?`).get(userId, conversationId) as
      { last_message_at: string } | undefined;
    return r?.last_message_at;
  }

  /** How many live messages of the import stand after `afterId`. */
  countAfter(userId: string, id: number, afterId: number): number {
    return (
      prepared(this.db, `SELECT count(*) AS n FROM messages WHERE user_id = ? AND history_import = ? AND id > ? AND redacted_at IS NULL`).get(
        userId,
        id,
        afterId,
      ) as { n: number }
    ).n;
  }

  /** The memories (notes, important, profile, topics) whose provenance is `import` with `ref`: what an import's extraction wrote. */
  derived(userId: string, ref: string): { kind: (typeof DERIVED_TABLES)[number]; id: number; text: string; createdAt: string }[] {
    return DERIVED_TABLES.flatMap((kind) =>
      (
        prepared(this.db, `SELECT id, text, created_at FROM ${kind} WHERE user_id = ? AND provenance = 'import' AND provenance_ref = ? ORDER BY id`).all(
          userId,
          ref,
        ) as { id: number; text: string; created_at: string }[]
      ).map((r) => ({ kind, id: r.id, text: r.text, createdAt: r.created_at })),
    );
  }
}
