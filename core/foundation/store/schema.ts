/**
 * The database schema as an ordered list of migrations. A migration is never
 * edited after it shipped; changes come as a new entry at the end.
 * Every row is scoped to a user id; times are ISO-8601 UTC strings.
 */
import { LATER_MIGRATIONS } from "./schema-later.ts";

/** The FTS5 index of one text store, kept in step by triggers and filled from the rows it already has. */
function storeKeywordIndex(t: string): string {
  return `
  CREATE VIRTUAL TABLE ${t}_fts USING fts5(text, content='${t}', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
  CREATE TRIGGER ${t}_fts_ai AFTER INSERT ON ${t} BEGIN
    INSERT INTO ${t}_fts(rowid, text) VALUES (new.id, new.text);
  END;
  CREATE TRIGGER ${t}_fts_ad AFTER DELETE ON ${t} BEGIN
    INSERT INTO ${t}_fts(${t}_fts, rowid, text) VALUES ('delete', old.id, old.text);
  END;
  CREATE TRIGGER ${t}_fts_au AFTER UPDATE OF text ON ${t} BEGIN
    INSERT INTO ${t}_fts(${t}_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO ${t}_fts(rowid, text) VALUES (new.id, new.text);
  END;
  INSERT INTO ${t}_fts(${t}_fts) VALUES ('rebuild');
`;
}

export const MIGRATIONS: readonly string[] = [
  /* 1: the nine stores and the logs */ `
  CREATE TABLE conversations (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    started_at TEXT NOT NULL,
    last_message_at TEXT NOT NULL,
    start_model TEXT,
    title TEXT
  );
  CREATE INDEX conversations_user ON conversations(user_id, last_message_at);

  -- 1 chat log: every message verbatim
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id),
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    text TEXT NOT NULL,
    model TEXT,
    mood TEXT,
    proactive INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX messages_user_time ON messages(user_id, created_at);
  CREATE INDEX messages_conversation ON messages(conversation_id, id);
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    text, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text);
  END;
  CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
  END;
  CREATE TRIGGER messages_au AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text);
  END;

  -- 2 profile: short facts by category
  CREATE TABLE profile (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    category TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX profile_unique ON profile(user_id, category, text);

  -- 3 short-term memory: where we left off
  CREATE TABLE short_term (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    conversation_id INTEGER REFERENCES conversations(id),
    text TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX short_term_user ON short_term(user_id, created_at);

  -- 4-7: stores with vectors share one shape (text rows mirrored in the index)
  CREATE TABLE important (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    weight INTEGER NOT NULL DEFAULT 1,
    source_message_id INTEGER,
    superseded_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'fact' CHECK (kind IN ('fact', 'content')),
    source_message_id INTEGER,
    superseded_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE thoughts (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    questions TEXT,
    origin TEXT NOT NULL DEFAULT 'chat',
    superseded_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE diary (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    day TEXT,
    superseded_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX important_user ON important(user_id, created_at);
  CREATE INDEX notes_user ON notes(user_id, created_at);
  CREATE INDEX notes_text ON notes(user_id, text);
  CREATE INDEX thoughts_user ON thoughts(user_id, created_at);
  CREATE INDEX diary_user ON diary(user_id, created_at);

  -- 8 follow-up topics and concerns
  CREATE TABLE topics (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'followup' CHECK (kind IN ('followup', 'concern')),
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'dropped', 'queued')),
    due_at TEXT NOT NULL,
    done_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX topics_user ON topics(user_id, status, due_at);

  -- 9 learned rules
  CREATE TABLE rules (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    source_message_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );

  -- questions Lilo asked and waits on (yes/no for a learned rule, ...)
  CREATE TABLE pending_questions (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'yes', 'no', 'discarded', 'expired')),
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );

  -- logs
  CREATE TABLE correction_log (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    store TEXT NOT NULL,
    row_id INTEGER NOT NULL,
    action TEXT NOT NULL,
    old_text TEXT NOT NULL,
    new_text TEXT,
    trigger_message_id INTEGER,
    trigger_text TEXT NOT NULL,
    reason TEXT,
    undone_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE search_log (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    query TEXT NOT NULL,
    provider TEXT,
    result_count INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE suggestions (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE push_targets (
    user_id TEXT NOT NULL,
    transport TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (user_id)
  );
  CREATE TABLE push_log (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    transport TEXT,
    chat_id TEXT,
    text TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'failed', 'not-opted-in', 'quiet-hours', 'no-transport')),
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  -- model answers that had to be repaired, retried or dropped
  CREATE TABLE model_problems (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('repaired', 'retried', 'dropped')),
    detail TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  -- per-user run-time settings (chat model switch, ...) and program state
  CREATE TABLE settings (
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
  );
  `,
  /* corrections: a rewrite adds the new text as a new note; undo forgets it again */ `
  ALTER TABLE correction_log ADD COLUMN new_row_id INTEGER;
  CREATE INDEX correction_log_user ON correction_log(user_id, created_at);
  `,
  /* recall: answers written with chat-log passages rank below originals in later searches (docs/spec.md §5.1) */ `
  ALTER TABLE messages ADD COLUMN recall_answer INTEGER NOT NULL DEFAULT 0;
  `,
  /* hybrid recall: keyword indexes of the memory stores and of the chat log with neighbouring turns */ `
${["notes", "important", "thoughts", "diary"].map(storeKeywordIndex).join("")}
  -- chat log with its neighbours: answers often say "yes, last Friday" while the keywords sit in the turn
  -- before or after, so each message is indexed with the texts of both neighbours as a second column
  -- (ranked with a lower weight). A table of its own, since the context column has no twin in messages.
  CREATE VIRTUAL TABLE messages_ctx_fts USING fts5(text, context, tokenize='unicode61 remove_diacritics 2');
  CREATE TRIGGER messages_ctx_ai AFTER INSERT ON messages BEGIN
    INSERT INTO messages_ctx_fts(rowid, text, context) VALUES (new.id, new.text,
      coalesce((SELECT text FROM messages WHERE conversation_id = new.conversation_id AND id < new.id ORDER BY id DESC LIMIT 1), ''));
    UPDATE messages_ctx_fts SET context = context || ' ' || new.text
      WHERE rowid = (SELECT id FROM messages WHERE conversation_id = new.conversation_id AND id < new.id ORDER BY id DESC LIMIT 1);
  END;
  CREATE TRIGGER messages_ctx_ad AFTER DELETE ON messages BEGIN
    DELETE FROM messages_ctx_fts WHERE rowid = old.id;
  END;
  CREATE TRIGGER messages_ctx_au AFTER UPDATE OF text ON messages BEGIN
    UPDATE messages_ctx_fts SET text = new.text WHERE rowid = new.id;
    UPDATE messages_ctx_fts SET context = replace(context, old.text, new.text)
      WHERE rowid IN (SELECT id FROM messages WHERE conversation_id = new.conversation_id AND id <> new.id
                      AND id IN ((SELECT max(id) FROM messages WHERE conversation_id = new.conversation_id AND id < new.id),
                                 (SELECT min(id) FROM messages WHERE conversation_id = new.conversation_id AND id > new.id)));
  END;
  INSERT INTO messages_ctx_fts(rowid, text, context)
    SELECT m.id, m.text,
      coalesce((SELECT p.text FROM messages p WHERE p.conversation_id = m.conversation_id AND p.id < m.id ORDER BY p.id DESC LIMIT 1), '') || ' ' ||
      coalesce((SELECT n.text FROM messages n WHERE n.conversation_id = m.conversation_id AND n.id > m.id ORDER BY n.id LIMIT 1), '')
    FROM messages m;

  -- vectors of chat messages for the meaning side of the chat-log search; derived data, filled
  -- lazily per user (core/memory/recall/message-vectors.ts), dropped with their message
  CREATE TABLE message_vectors (
    message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    embedder TEXT NOT NULL,
    vector BLOB NOT NULL
  );
  CREATE INDEX message_vectors_user ON message_vectors(user_id, embedder);
  CREATE TRIGGER message_vectors_au AFTER UPDATE OF text ON messages BEGIN
    DELETE FROM message_vectors WHERE message_id = new.id;
  END;
  `,
  /* lookups: news feeds and their items (searched by [NEWS:]); the search log gains an index */ `
  CREATE TABLE feeds (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    title TEXT,
    last_fetched_at TEXT,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE feed_items (
    id INTEGER PRIMARY KEY,
    feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
    guid TEXT NOT NULL,
    url TEXT,
    title TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '',
    published_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (feed_id, guid)
  );
  CREATE INDEX feed_items_url ON feed_items(url);
  CREATE INDEX feed_items_time ON feed_items(published_at);
  CREATE VIRTUAL TABLE feed_items_fts USING fts5(title, summary, content='feed_items', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
  CREATE TRIGGER feed_items_ai AFTER INSERT ON feed_items BEGIN
    INSERT INTO feed_items_fts(rowid, title, summary) VALUES (new.id, new.title, new.summary);
  END;
  CREATE TRIGGER feed_items_ad AFTER DELETE ON feed_items BEGIN
    INSERT INTO feed_items_fts(feed_items_fts, rowid, title, summary) VALUES ('delete', old.id, old.title, old.summary);
  END;
  CREATE INDEX search_log_user ON search_log(user_id, created_at);
  `,
  /* nothing lost: the inbox, delivery state, durable after-reply jobs, tombstoned forgets */ `
  -- where a user message came from (the platform's id makes a redelivered message a no-op)
  ALTER TABLE messages ADD COLUMN transport TEXT;
  ALTER TABLE messages ADD COLUMN chat_id TEXT;
  ALTER TABLE messages ADD COLUMN external_id TEXT;
  -- user messages: pending (stored, turn not finished) | answered | failed (retryable) | acknowledged (too old)
  ALTER TABLE messages ADD COLUMN reply_state TEXT NOT NULL DEFAULT 'answered'
    CHECK (reply_state IN ('pending', 'answered', 'failed', 'acknowledged'));
  -- answers: pending (stored, not sent yet) | delivered | failed (the platform refused it)
  ALTER TABLE messages ADD COLUMN delivery TEXT NOT NULL DEFAULT 'delivered'
    CHECK (delivery IN ('pending', 'delivered', 'failed'));
  ALTER TABLE messages ADD COLUMN reply_to INTEGER;
  CREATE UNIQUE INDEX messages_external ON messages(transport, external_id) WHERE external_id IS NOT NULL;
  CREATE INDEX messages_unfinished ON messages(reply_state, delivery, id);

  -- after-reply work (extraction, addressed-check), written with the answer and resumed on start
  CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX jobs_pending ON jobs(status, id);

  -- a forget marks the row first; doctor finishes a half-done delete instead of re-embedding it
  ALTER TABLE notes ADD COLUMN forgotten_at TEXT;
  ALTER TABLE important ADD COLUMN forgotten_at TEXT;
  ALTER TABLE thoughts ADD COLUMN forgotten_at TEXT;
  ALTER TABLE diary ADD COLUMN forgotten_at TEXT;
  `,
  /* The rules every turn reads for one user come from an index, not a scan of every user's rules */ `
  CREATE INDEX IF NOT EXISTS rules_user ON rules(user_id, enabled, id);
  `,
  /* One outbox for every push — any process writes, the running bot delivers */ `
  CREATE TABLE push_outbox (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    force INTEGER NOT NULL DEFAULT 0,
    -- JSON: what to do once delivered (store as proactive message, mark a concern topic done)
    after TEXT,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'done')),
    attempts INTEGER NOT NULL DEFAULT 0,
    outcome TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX push_outbox_pending ON push_outbox(status, id);
  `,
  ...LATER_MIGRATIONS,
];
