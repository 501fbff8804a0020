/**
 * The migrations that came with the usage ledger, Lilo's pages, per-user
 * keyword indexes and trustworthy memory, then a chat-log
 * index, in the order they run after those in schema.ts. Never
 * edited after they shipped.
 */
import { userKey } from "./user-fts.ts";

/** A store's keyword index partitioned by user (see user-fts.ts), replacing `${t}_fts`. */
function userKeywordIndex(t: string): string {
  return `
  DROP TRIGGER ${t}_fts_ai; DROP TRIGGER ${t}_fts_ad; DROP TRIGGER ${t}_fts_au; DROP TABLE ${t}_fts;
  CREATE VIRTUAL TABLE ${t}_user_fts USING fts5(text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
  CREATE TRIGGER ${t}_user_fts_ai AFTER INSERT ON ${t} BEGIN
    INSERT OR IGNORE INTO fts_users(user_id) VALUES (new.user_id);
    INSERT INTO ${t}_user_fts(rowid, text) VALUES (${userKey("new.user_id", "new.id")}, new.text);
  END;
  CREATE TRIGGER ${t}_user_fts_ad AFTER DELETE ON ${t} BEGIN
    DELETE FROM ${t}_user_fts WHERE rowid = ${userKey("old.user_id", "old.id")};
  END;
  CREATE TRIGGER ${t}_user_fts_au AFTER UPDATE OF text, user_id ON ${t} BEGIN
    DELETE FROM ${t}_user_fts WHERE rowid = ${userKey("old.user_id", "old.id")};
    INSERT OR IGNORE INTO fts_users(user_id) VALUES (new.user_id);
    INSERT INTO ${t}_user_fts(rowid, text) VALUES (${userKey("new.user_id", "new.id")}, new.text);
  END;
  INSERT INTO ${t}_user_fts(rowid, text) SELECT ${userKey("r.user_id", "r.id")}, r.text FROM ${t} r;
`;
}

/** The triggers that log a memory store's changed rows for the keyword index in memory (memory_keyword_changes). */
function memoryKeywordChanges(t: string): string {
  const prune = `DELETE FROM memory_keyword_changes WHERE seq <= (SELECT max(seq) FROM memory_keyword_changes) - 20000;`;
  return `
  CREATE TRIGGER ${t}_keyword_changes_ai AFTER INSERT ON ${t} BEGIN
    INSERT INTO memory_keyword_changes(store, user_id, row_id) VALUES ('${t}', new.user_id, new.id);
    ${prune}
  END;
  CREATE TRIGGER ${t}_keyword_changes_ad AFTER DELETE ON ${t} BEGIN
    INSERT INTO memory_keyword_changes(store, user_id, row_id) VALUES ('${t}', old.user_id, old.id);
    ${prune}
  END;
  CREATE TRIGGER ${t}_keyword_changes_au AFTER UPDATE OF text, user_id, superseded_at, created_at ON ${t} BEGIN
    INSERT INTO memory_keyword_changes(store, user_id, row_id) SELECT '${t}', new.user_id, new.id UNION SELECT '${t}', old.user_id, old.id;
    ${prune}
  END;`;
}

export const LATER_MIGRATIONS: readonly string[] = [
  /* The usage ledger — every model call with its tokens, latency and cost, pruned after LILO_USAGE_KEEP_DAYS */ `
  CREATE TABLE usage_ledger (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    -- the call's calendar day in Lilo's time zone: budgets and reports count by it
    local_day TEXT NOT NULL,
    -- null: the call served nobody in particular
    user_id TEXT,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    purpose TEXT NOT NULL,
    -- the whole prompt; the cached and cache-write parts are inside it
    input_tokens INTEGER NOT NULL,
    cached_input_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL,
    -- 1: the server sent no usage; the tokens are estimated from the text
    estimated INTEGER NOT NULL DEFAULT 0,
    latency_ms INTEGER NOT NULL,
    -- in LILO_CURRENCY at the price of the day; null when no price is known for the model
    cost REAL
  );
  CREATE INDEX usage_ledger_day ON usage_ledger(local_day);
  CREATE INDEX usage_ledger_created ON usage_ledger(created_at);
  `,
  /* Lilo's pages — one-time login links and browser sessions, stored only as hashes of their tokens */ `
  CREATE TABLE web_tokens (
    hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('link', 'session')),
    -- NULL: the operator (sees every user's memories)
    user_id TEXT,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX web_tokens_expiry ON web_tokens(expires_at);
  `,
  /* Keyword indexes partitioned by user inside FTS5 (a user's search reads only their rows, bm25 unchanged);
     chat-message vectors move into the vector index, message_vectors keeps which messages have one */ `
  CREATE TABLE fts_users (slot INTEGER PRIMARY KEY, user_id TEXT NOT NULL UNIQUE);
  INSERT INTO fts_users(user_id)
    SELECT user_id FROM notes UNION SELECT user_id FROM important UNION SELECT user_id FROM thoughts
    UNION SELECT user_id FROM diary UNION SELECT user_id FROM messages;
${["notes", "important", "thoughts", "diary"].map(userKeywordIndex).join("")}
  DROP TRIGGER messages_ctx_ai; DROP TRIGGER messages_ctx_ad; DROP TRIGGER messages_ctx_au; DROP TABLE messages_ctx_fts;
  CREATE VIRTUAL TABLE messages_ctx_user_fts USING fts5(text, context, tokenize='unicode61 remove_diacritics 2');
  CREATE TRIGGER messages_ctx_ai AFTER INSERT ON messages BEGIN
    INSERT OR IGNORE INTO fts_users(user_id) VALUES (new.user_id);
    INSERT INTO messages_ctx_user_fts(rowid, text, context) VALUES (${userKey("new.user_id", "new.id")}, new.text,
      coalesce((SELECT text FROM messages WHERE conversation_id = new.conversation_id AND id < new.id ORDER BY id DESC LIMIT 1), ''));
    UPDATE messages_ctx_user_fts SET context = context || ' ' || new.text
      WHERE rowid = ${userKey("new.user_id", "(SELECT id FROM messages WHERE conversation_id = new.conversation_id AND id < new.id ORDER BY id DESC LIMIT 1)")};
  END;
  CREATE TRIGGER messages_ctx_ad AFTER DELETE ON messages BEGIN
    DELETE FROM messages_ctx_user_fts WHERE rowid = ${userKey("old.user_id", "old.id")};
  END;
  CREATE TRIGGER messages_ctx_au AFTER UPDATE OF text ON messages BEGIN
    UPDATE messages_ctx_user_fts SET text = new.text WHERE rowid = ${userKey("new.user_id", "new.id")};
    UPDATE messages_ctx_user_fts SET context = replace(context, old.text, new.text)
      WHERE rowid IN (SELECT ${userKey("new.user_id", "id")} FROM messages WHERE conversation_id = new.conversation_id AND id <> new.id
                      AND id IN ((SELECT max(id) FROM messages WHERE conversation_id = new.conversation_id AND id < new.id),
                                 (SELECT min(id) FROM messages WHERE conversation_id = new.conversation_id AND id > new.id)));
  END;
  INSERT INTO messages_ctx_user_fts(rowid, text, context)
    SELECT ${userKey("m.user_id", "m.id")}, m.text,
      coalesce((SELECT p.text FROM messages p WHERE p.conversation_id = m.conversation_id AND p.id < m.id ORDER BY p.id DESC LIMIT 1), '') || ' ' ||
      coalesce((SELECT n.text FROM messages n WHERE n.conversation_id = m.conversation_id AND n.id > m.id ORDER BY n.id LIMIT 1), '')
    FROM messages m;

  -- chat-message vectors move into the vector index (store "messages"): int8 copy, rescoring, change log and
  -- snapshot like the notes. This table now only records which messages have a vector (and of which embedder);
  -- the old vectors wait in message_vectors_legacy until the index takes them over, user by user.
  ALTER TABLE message_vectors RENAME TO message_vectors_legacy;
  CREATE TABLE message_vectors (
    message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    embedder TEXT NOT NULL
  );
  CREATE INDEX message_vectors_by_user ON message_vectors(user_id, embedder);
  CREATE TRIGGER message_vectors_mark_au AFTER UPDATE OF text ON messages BEGIN
    DELETE FROM message_vectors WHERE message_id = new.id;
  END;
  `,
  /* Receipts of what each answer's sheet held, boundaries, provenance and subject of memories, redacted chat messages */ `
  -- what was on an answer's cheat sheet (derived data, dropped with its answer)
  CREATE TABLE receipts (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    answer_id INTEGER NOT NULL UNIQUE,
    items TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX receipts_user ON receipts(user_id, answer_id);
  CREATE TRIGGER receipts_prune AFTER DELETE ON messages BEGIN
    DELETE FROM receipts WHERE answer_id = old.id;
  END;
  -- topics the user asked Lilo never to bring up on her own
  CREATE TABLE boundaries (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    source_message_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX boundaries_unique ON boundaries(user_id, text);
  -- where a memory came from: user (message id), inference (message id), lookup (URL or feed), import, operator
  ALTER TABLE notes ADD COLUMN provenance TEXT;
  ALTER TABLE notes ADD COLUMN provenance_ref TEXT;
  ALTER TABLE important ADD COLUMN provenance TEXT;
  ALTER TABLE important ADD COLUMN provenance_ref TEXT;
  ALTER TABLE thoughts ADD COLUMN provenance TEXT;
  ALTER TABLE thoughts ADD COLUMN provenance_ref TEXT;
  ALTER TABLE diary ADD COLUMN provenance TEXT;
  ALTER TABLE diary ADD COLUMN provenance_ref TEXT;
  ALTER TABLE profile ADD COLUMN provenance TEXT;
  ALTER TABLE profile ADD COLUMN provenance_ref TEXT;
  ALTER TABLE topics ADD COLUMN provenance TEXT;
  ALTER TABLE topics ADD COLUMN provenance_ref TEXT;
  -- whom a note or important memory is about: 'user', 'lilo' or a person's name
  ALTER TABLE notes ADD COLUMN subject TEXT;
  ALTER TABLE important ADD COLUMN subject TEXT;
  -- a forgotten chat message keeps its place in the conversation; its text is replaced and search skips it
  ALTER TABLE messages ADD COLUMN redacted_at TEXT;
  `,
  /* A user's messages by id — the vector catch-up, the newest-message look-up and the search's
     look-ups seek in it instead of reading the user's whole log on every turn; a conversation's messages in
     the order a turn reads its history, so a long conversation's last few are read without sorting all of it */ `
  CREATE INDEX messages_user_id ON messages(user_id, id);
  CREATE INDEX messages_conversation_order ON messages(conversation_id, coalesce(reply_to, id), id);
  `,
  /* A profile entry marked wrong or outdated in /why is logged with its category and origin, so undo restores it */ `
  ALTER TABLE correction_log ADD COLUMN old_category TEXT;
  ALTER TABLE correction_log ADD COLUMN old_provenance TEXT;
  ALTER TABLE correction_log ADD COLUMN old_provenance_ref TEXT;
  `,
  /* Which rows of messages_ctx_user_fts (or the filters' columns of messages) changed, in order — the
     chat log's keyword index in memory (core/memory/recall/keyword-index) reads it by sequence number before each
     search, so it also sees writes of other processes (the CLI, an import). The same rows the messages_ctx
     triggers touch; the last 20,000 changes are kept (an index further behind rebuilds). */ `
  CREATE TABLE chat_keyword_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    message_id INTEGER NOT NULL
  );
  CREATE TRIGGER chat_keyword_changes_ai AFTER INSERT ON messages BEGIN
    INSERT INTO chat_keyword_changes(user_id, message_id)
      SELECT new.user_id, new.id UNION ALL
      SELECT new.user_id, p.id FROM (SELECT id FROM messages WHERE conversation_id = new.conversation_id AND id < new.id ORDER BY id DESC LIMIT 1) p;
    DELETE FROM chat_keyword_changes WHERE seq <= (SELECT max(seq) FROM chat_keyword_changes) - 20000;
  END;
  CREATE TRIGGER chat_keyword_changes_ad AFTER DELETE ON messages BEGIN
    INSERT INTO chat_keyword_changes(user_id, message_id) VALUES (old.user_id, old.id);
    DELETE FROM chat_keyword_changes WHERE seq <= (SELECT max(seq) FROM chat_keyword_changes) - 20000;
  END;
  CREATE TRIGGER chat_keyword_changes_au AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO chat_keyword_changes(user_id, message_id)
      SELECT new.user_id, new.id UNION ALL
      SELECT new.user_id, id FROM messages WHERE conversation_id = new.conversation_id AND id <> new.id
        AND id IN ((SELECT max(id) FROM messages WHERE conversation_id = new.conversation_id AND id < new.id),
                   (SELECT min(id) FROM messages WHERE conversation_id = new.conversation_id AND id > new.id));
    DELETE FROM chat_keyword_changes WHERE seq <= (SELECT max(seq) FROM chat_keyword_changes) - 20000;
  END;
  -- what the search filters on (forgotten, conversation, time, owner) is mirrored too
  CREATE TRIGGER chat_keyword_changes_am AFTER UPDATE OF redacted_at, conversation_id, created_at, user_id ON messages BEGIN
    INSERT INTO chat_keyword_changes(user_id, message_id) SELECT new.user_id, new.id UNION SELECT old.user_id, old.id;
    DELETE FROM chat_keyword_changes WHERE seq <= (SELECT max(seq) FROM chat_keyword_changes) - 20000;
  END;
  `,
  /* Which rows of the memory stores (notes, important, thoughts, diary) changed, in order — their
     keyword index in memory (core/memory/recall/keyword-index) reads it by sequence number before each search,
     as the chat log's reads chat_keyword_changes. Text, owner, superseded (the search's filter) and time (the
     order a build reads a user's rows in) are logged; the last 20,000 changes are kept (an index further behind rebuilds). */ `
  CREATE TABLE memory_keyword_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    store TEXT NOT NULL,
    user_id TEXT NOT NULL,
    row_id INTEGER NOT NULL
  );
${["notes", "important", "thoughts", "diary"].map(memoryKeywordChanges).join("")}
  `,
  /* Chat histories a person brought along (lilo import-history): one row per import, and on each message it
     brought the import, the other party's name (null: the person or Lilo) and a key of speaker, time and text
     that makes importing the same or an overlapping export again add only what is new. An imported
     conversation is marked too: it is never the one a live message continues, nor "the last talk" a return greeting recalls. */ `
  CREATE TABLE history_imports (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    format TEXT NOT NULL,
    file_name TEXT NOT NULL,
    file_hash TEXT NOT NULL,
    me TEXT NOT NULL,
    created_at TEXT NOT NULL,
    messages INTEGER NOT NULL DEFAULT 0,
    undone_at TEXT
  );
  ALTER TABLE messages ADD COLUMN speaker TEXT;
  ALTER TABLE messages ADD COLUMN history_import INTEGER REFERENCES history_imports(id);
  ALTER TABLE messages ADD COLUMN import_key TEXT;
  ALTER TABLE conversations ADD COLUMN history_import INTEGER REFERENCES history_imports(id);
  CREATE UNIQUE INDEX messages_import_key ON messages(user_id, import_key) WHERE import_key IS NOT NULL;
  `,
  /* An answer the person stopped while it was being written (Telegram's stop button): its text is what
     had been shown, and the mark says it is not the whole answer the model would have written. */ `
  ALTER TABLE messages ADD COLUMN stopped INTEGER NOT NULL DEFAULT 0;
  `,
  /* Reminders the person asked for: one-shot or recurring (the rule as JSON), the time zone they were set in,
     the next due time, their state and the chat they go to; the message that set one is its source. A reminder
     push names its chat itself (push_outbox.target), so it needs no opt-in. */ `
  CREATE TABLE reminders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    recurrence TEXT,
    due_at TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'snoozed', 'delivered', 'done', 'cancelled', 'missed')),
    transport TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    source TEXT NOT NULL,
    source_message_id INTEGER,
    delivered_count INTEGER NOT NULL DEFAULT 0,
    last_due_at TEXT,
    last_message_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX reminders_due ON reminders(due_at) WHERE state IN ('pending', 'snoozed');
  CREATE INDEX reminders_user ON reminders(user_id, state, due_at);
  ALTER TABLE push_outbox ADD COLUMN target TEXT;
  `,
  /* The key stores of Lilo's end-to-end encryption devices (Matrix), record by record inside the database, so
     they are private, backed up and encrypted at rest with everything else: per store its layout (opaque JSON:
     object stores, key paths, indexes) and per record its serialized key and value. */ `
  CREATE TABLE device_key_stores (
    name TEXT PRIMARY KEY,
    layout TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE device_key_records (
    store_name TEXT NOT NULL REFERENCES device_key_stores(name) ON DELETE CASCADE ON UPDATE CASCADE,
    object_store TEXT NOT NULL,
    key BLOB NOT NULL,
    value BLOB NOT NULL,
    PRIMARY KEY (store_name, object_store, key)
  ) WITHOUT ROWID;
  `,
  /* Saved analyses (the outside view), inside the database so they are private, backed up and encrypted at rest
     with everything else: per analysis its unfinished run's state (JSON, with the transcript parts) or its
     finished report, which replaces the state. */ `
  CREATE TABLE analyses (
    id TEXT PRIMARY KEY,
    state TEXT,
    report TEXT,
    updated_at TEXT NOT NULL,
    CHECK (state IS NOT NULL OR report IS NOT NULL)
  ) WITHOUT ROWID;
  `,
];
