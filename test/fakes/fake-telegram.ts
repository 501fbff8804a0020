/**
 * A fake Telegram Bot API on 127.0.0.1 for tests with the real grammY client
 * (`new Bot(token, { client: { apiRoot: fake.url } })`).
 *
 * It speaks `POST /bot<token>/<method>` with JSON, url-encoded or multipart
 * bodies and answers `{ ok: true, result }` or `{ ok: false, error_code,
 * description, parameters? }` like the real server, including the refusals
 * Lilo must survive: bad HTML ("can't parse entities"), text over 4096
 * characters, and scripted errors such as 429 with `retry_after`.
 *
 * ```ts
 * const tg = await startFakeTelegram();
 * tg.pushMessage({ fromId: 111, chatId: 111, text: "Hallo" });
 * const sent = await tg.waitFor((calls) => calls.find((c) => c.method === "sendMessage"));
 * tg.failNext("sendMessage", 429, "Too Many Requests: retry after 1", 1);
 * ```
 *
 * Answers written as they stream: `sendMessageDraft` (private chats only,
 * as on Telegram; the newest draft of each chat is kept until a message
 * replaces it), `editMessageText` and `deleteMessage`; every call is logged
 * with the time it arrived, and `pushStopGeneration` presses a draft's stop button.
 */
import type { ServerResponse } from "node:http";
import { sendJson, startFakeServer, type RecordedRequest } from "./http-server.ts";

/** One Bot API call the bot made (getUpdates is left out: it is polling noise). */
export interface SentCall {
  method: string;
  params: Record<string, unknown>;
  /** False when the fake answered with an error (scripted or validation). */
  ok: boolean;
  /** What the fake answered (e.g. the sent Message with its message_id). */
  result?: unknown;
  description?: string;
  /** When the call arrived (`Date.now()`), to measure how soon and how often updates came. */
  at: number;
}

/** One file the bot uploaded in a multipart call. */
export interface Upload {
  method: string;
  chatId: number;
  fileName: string;
  bytes: Buffer;
}

/** A message as the fake keeps it (sent by the bot or pushed by a test). */
interface StoredMessage {
  message_id: number;
  date: number;
  chat: { id: number; type: string };
  from: { id: number; is_bot: boolean; first_name: string; username?: string };
  text: string;
  reply_markup?: unknown;
}

export interface FakeTelegram {
  /** What to pass as grammY's `client.apiRoot`. */
  url: string;
  token: string;
  /** Every call except getUpdates, in arrival order. */
  sent: SentCall[];
  /** The newest update id queued for getUpdates so far (0 before the first). */
  readonly lastUpdateId: number;
  /** The newest update id the bot has confirmed (getUpdates with a higher offset): Telegram has dropped it. */
  readonly confirmedUpdateId: number;
  /** The webhook the bot registered with setWebhook, if any. */
  webhook: { url: string; secretToken?: string } | undefined;
  /** Keeps bytes as a file the bot can fetch (getFile, then `/file/bot<token>/<path>`); returns its id and size. */
  addFile(bytes: Uint8Array | string, ext: string): { file_id: string; file_unique_id: string; file_size: number };
  /** File downloads the bot made (paths without the token), in order. */
  downloads: string[];
  /** Files the bot uploaded (sendVoice…), with their bytes as sent. */
  uploads: Upload[];
  /** Queues a message from a user with any fields (photo, caption, voice, sticker, location…) instead of text. */
  pushMedia(m: { fromId: number; chatId: number; fields: Record<string, unknown> }): { message_id: number };
  /** Queues a text message from a user; returns the message (its id is what reactions point at). */
  pushMessage(m: { fromId: number; chatId: number; text: string }): StoredMessage;
  /** Builds (and remembers) a message update without queueing it: for posting to a webhook. */
  messageUpdate(m: { fromId: number; chatId: number; text: string }): { update_id: number; message: StoredMessage };
  /** Queues a post in a channel the bot is a member of (no sender, as Telegram sends channel posts). */
  pushChannelPost(c: { chatId: number; text: string }): void;
  /** Queues an edit of a message a user sent earlier. */
  pushEditedMessage(m: { fromId: number; chatId: number; messageId: number; text: string }): void;
  /** Queues Telegram's update for a press on a draft's stop button (`stopped_message_generation`). */
  pushStopGeneration(s: { chatId: number; draftId: number }): void;
  /** The draft on screen in each private chat (gone once the bot sends a message there). */
  drafts: Map<number, { draftId: number; text: string }>;
  /** Queues a button press on a message the bot sent. */
  pushCallback(c: { fromId: number; chatId: number; messageId: number; data: string }): { id: string };
  /** Resolves with the predicate's first truthy result over `sent`; rejects after `timeoutMs`. */
  waitFor<T>(predicate: (calls: SentCall[]) => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** The next `times` requests (any method) get their connection cut without an answer, as when the Bot API is unreachable. */
  unreachable(times: number): FakeTelegram;
  /** The next call of `method` fails with this status and description (and `retry_after`, for 429). */
  failNext(method: string, status: number, description: string, retryAfter?: number): FakeTelegram;
  /** Successful calls of one method, optionally in one chat. */
  calls(method: string, chatId?: number): SentCall[];
  close(): Promise<void>;
}

export interface FakeTelegramOptions {
  token?: string;
  /** Longest a getUpdates request is held open without updates (ms); the bot's own timeout may be shorter. */
  maxHoldMs?: number;
}

type Failure = { status: number; description: string; retryAfter: number | undefined };
type Result = { ok: true; result: unknown } | { ok: false; status: number; description: string; retryAfter?: number };

const BOT_USER = { id: 999_000, is_bot: true, first_name: "Lilo", username: "lilo_test_bot" };
const ALLOWED_TAGS = new Set(["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "code", "pre", "a", "span", "tg-spoiler", "blockquote"]);

export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = options.token ?? "123456:TEST-TOKEN";
  const maxHold = options.maxHoldMs ?? 1_000;
  const updates: { update_id: number; [k: string]: unknown }[] = [];
  const messages = new Map<string, StoredMessage>();
  const failures = new Map<string, Failure[]>();
  const listeners = new Set<() => void>();
  const waiters = new Set<() => void>();
  const sent: SentCall[] = [];
  const files = new Map<string, { path: string; bytes: Buffer }>();
  const downloads: string[] = [];
  const uploads: Upload[] = [];
  let nextUpdate = 1;
  let nextMessage = 1;
  let nextCallback = 1;
  let closed = false;
  let cutConnections = 0;
  let confirmed = 0;
  let lastQueued = 0;

  const key = (chatId: number, id: number) => `${chatId}:${id}`;
  const now = () => Math.floor(Date.now() / 1000);
  // As on Telegram: users' private chats have positive ids, basic groups negative ones, supergroups and channels -100….
  const chatOf = (id: number, channel = false) => ({ id, type: id > 0 ? "private" : channel ? "channel" : id <= -1_000_000_000_000 ? "supergroup" : "group" });
  const notify = (set: Set<() => void>) => [...set].forEach((fn) => fn());
  const store = (m: StoredMessage) => (messages.set(key(m.chat.id, m.message_id), m), m);
  const queue = (u: Record<string, unknown>) => {
    // Keeps an id given by messageUpdate; ids only need to grow.
    const update = { update_id: nextUpdate++, ...u };
    lastQueued = Math.max(lastQueued, update.update_id);
    updates.push(update);
    notify(waiters);
  };

  const server = await startFakeServer(async (req, res) => {
    if (cutConnections > 0) {
      cutConnections--;
      res.socket?.destroy();
      return;
    }
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(req.path);
    if (file) return serveFile(res, file[1]!, file[2]!);
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.path);
    if (!m) return reply(res, { ok: false, status: 404, description: "Not Found" });
    if (m[1] !== token) return reply(res, { ok: false, status: 401, description: "Unauthorized" });
    const method = m[2]!;
    const params = parseParams(req);
    if (method === "getUpdates") return reply(res, { ok: true, result: await getUpdates(params) });
    const failure = failures.get(method)?.shift();
    const result: Result = failure
      ? { ok: false, status: failure.status, description: failure.description, ...(failure.retryAfter !== undefined ? { retryAfter: failure.retryAfter } : {}) }
      : (badEncoding(params) ?? handle(method, params, uploadedFiles(req)));
    sent.push({ method, params, ok: result.ok, at: Date.now(), ...(result.ok ? { result: result.result } : { description: result.description }) });
    notify(listeners);
    reply(res, result);
  });

  function serveFile(res: ServerResponse, givenToken: string, path: string): void {
    if (givenToken !== token) return reply(res, { ok: false, status: 401, description: "Unauthorized" });
    const f = [...files.values()].find((x) => x.path === path);
    if (!f) return reply(res, { ok: false, status: 404, description: "Not Found" });
    downloads.push(path);
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(f.bytes.length) });
    res.end(f.bytes);
  }

  async function getUpdates(params: Record<string, unknown>): Promise<unknown[]> {
    const offset = Number(params.offset ?? 0);
    confirmed = Math.max(confirmed, offset - 1);
    const limit = Math.min(100, Number(params.limit ?? 100));
    // An offset confirms every update below it: they are gone for good.
    while (updates.length && updates[0]!.update_id < offset) updates.shift();
    const ready = () => updates.filter((u) => u.update_id >= offset).slice(0, limit);
    if (ready().length || closed) return ready();
    const holdMs = Math.min(maxHold, Number(params.timeout ?? 0) * 1000);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, holdMs);
      waiters.add(done);
    });
    return ready();
  }

  function handle(method: string, p: Record<string, unknown>, parts: { fileName: string; bytes: Buffer }[]): Result {
    switch (method) {
      case "getMe":
        return { ok: true, result: { ...BOT_USER, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } };
      case "deleteWebhook":
        fake.webhook = undefined;
        return { ok: true, result: true };
      case "setWebhook":
        fake.webhook = { url: String(p.url), ...(p.secret_token ? { secretToken: String(p.secret_token) } : {}) };
        return { ok: true, result: true };
      case "sendChatAction":
      case "setMessageReaction":
      case "answerCallbackQuery":
      case "setMyCommands":
        return { ok: true, result: true };
      case "sendMessageDraft": {
        const chatId = Number(p.chat_id);
        if (chatOf(chatId).type !== "private") return { ok: false, status: 400, description: "Bad Request: drafts can be sent only to private chats" };
        if (!Number(p.draft_id)) return { ok: false, status: 400, description: "Bad Request: draft_id must be non-zero" };
        const bad = String(p.text ?? "") ? checkText(p) : undefined;
        if (bad) return bad;
        fake.drafts.set(chatId, { draftId: Number(p.draft_id), text: visibleText(p) });
        return { ok: true, result: true };
      }
      case "deleteMessage": {
        const k = key(Number(p.chat_id), Number(p.message_id));
        if (!messages.delete(k)) return { ok: false, status: 400, description: "Bad Request: message to delete not found" };
        return { ok: true, result: true };
      }
      case "sendMessage": {
        const bad = checkText(p);
        if (bad) return bad;
        const chatId = Number(p.chat_id);
        // A message from the bot ends the draft shown in the chat.
        fake.drafts.delete(chatId);
        return {
          ok: true,
          result: store({
            message_id: nextMessage++,
            date: now(),
            chat: chatOf(chatId),
            from: BOT_USER,
            text: visibleText(p),
            ...(p.reply_markup ? { reply_markup: json(p.reply_markup) } : {}),
          }),
        };
      }
      case "editMessageText":
      case "editMessageReplyMarkup":
        return edit(method, p);
      case "sendVoice": {
        const chatId = Number(p.chat_id);
        const [file] = parts;
        if (!file) return { ok: false, status: 400, description: "Bad Request: there is no voice in the request" };
        uploads.push({ method, chatId, ...file });
        const id = `voice${uploads.length}`;
        const voice = { file_id: id, file_unique_id: `u${id}`, duration: 1, mime_type: "audio/ogg", file_size: file.bytes.length };
        return { ok: true, result: { ...store({ message_id: nextMessage++, date: now(), chat: chatOf(chatId), from: BOT_USER, text: "" }), voice } };
      }
      case "getFile": {
        const f = files.get(String(p.file_id));
        if (!f) return { ok: false, status: 400, description: "Bad Request: invalid file_id" };
        return { ok: true, result: { file_id: String(p.file_id), file_unique_id: `u${String(p.file_id)}`, file_size: f.bytes.length, file_path: f.path } };
      }
      default:
        return { ok: false, status: 404, description: "Not Found: method not found" };
    }
  }

  function edit(method: string, p: Record<string, unknown>): Result {
    const msg = messages.get(key(Number(p.chat_id), Number(p.message_id)));
    if (!msg) return { ok: false, status: 400, description: "Bad Request: message to edit not found" };
    const markup = p.reply_markup ? json(p.reply_markup) : undefined;
    let text = msg.text;
    if (method === "editMessageText") {
      const bad = checkText(p);
      if (bad) return bad;
      text = visibleText(p);
    }
    if (text === msg.text && JSON.stringify(markup) === JSON.stringify(msg.reply_markup)) {
      return {
        ok: false,
        status: 400,
        description:
          "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      };
    }
    const { reply_markup: _old, ...rest } = msg;
    return { ok: true, result: store({ ...rest, text, ...(markup ? { reply_markup: markup } : {}) }) };
  }

  const fake: FakeTelegram = {
    url: server.url,
    token,
    sent,
    get lastUpdateId() {
      return lastQueued;
    },
    get confirmedUpdateId() {
      return confirmed;
    },
    webhook: undefined,
    drafts: new Map(),
    downloads,
    uploads,
    addFile(bytes, ext) {
      const id = `file${files.size + 1}`;
      const data = Buffer.from(bytes);
      files.set(id, { path: `media/${id}.${ext}`, bytes: data });
      return { file_id: id, file_unique_id: `u${id}`, file_size: data.length };
    },
    pushMedia({ fromId, chatId, fields }) {
      const message_id = nextMessage++;
      queue({ message: { message_id, date: now(), chat: chatOf(chatId), from: { id: fromId, is_bot: false, first_name: `User${fromId}` }, ...fields } });
      return { message_id };
    },
    pushMessage(m) {
      const update = fake.messageUpdate(m);
      queue(update);
      return update.message;
    },
    messageUpdate({ fromId, chatId, text }) {
      const msg = store({
        message_id: nextMessage++,
        date: now(),
        chat: chatOf(chatId),
        from: { id: fromId, is_bot: false, first_name: `User${fromId}` },
        text,
      });
      // grammY finds commands through their bot_command entity, as Telegram sends it.
      const command = /^\/\S+/.exec(text);
      const entities = command ? { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } : {};
      return { update_id: nextUpdate++, message: { ...msg, ...entities } };
    },
    pushChannelPost({ chatId, text }) {
      queue({ channel_post: { message_id: nextMessage++, date: now(), chat: chatOf(chatId, true), sender_chat: chatOf(chatId, true), text } });
    },
    pushEditedMessage({ fromId, chatId, messageId, text }) {
      const from = { id: fromId, is_bot: false, first_name: `User${fromId}` };
      queue({ edited_message: { message_id: messageId, date: now(), edit_date: now(), chat: chatOf(chatId), from, text } });
    },
    pushStopGeneration({ chatId, draftId }) {
      queue({ stopped_message_generation: { chat: chatOf(chatId), draft_id: draftId } });
    },
    pushCallback({ fromId, chatId, messageId, data }) {
      const id = `cb${nextCallback++}`;
      const message = messages.get(key(chatId, messageId)) ?? { message_id: messageId, date: now(), chat: chatOf(chatId), from: BOT_USER, text: "" };
      queue({ callback_query: { id, from: { id: fromId, is_bot: false, first_name: `User${fromId}` }, chat_instance: String(chatId), data, message } });
      return { id };
    },
    waitFor(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const r = predicate(sent);
          if (r) {
            finish();
            resolve(r);
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`fake Telegram: condition not met in ${timeoutMs} ms; calls: ${sent.map((c) => c.method).join(", ") || "(none)"}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    unreachable(times) {
      cutConnections += times;
      return fake;
    },
    failNext(method, status, description, retryAfter) {
      const list = failures.get(method) ?? [];
      list.push({ status, description, retryAfter });
      failures.set(method, list);
      return fake;
    },
    calls(method, chatId) {
      return sent.filter((c) => c.ok && c.method === method && (chatId === undefined || Number(c.params.chat_id) === chatId));
    },
    async close() {
      closed = true;
      notify(waiters);
      await server.close();
    },
  };
  return fake;
}

function reply(res: ServerResponse, r: Result): void {
  if (res.destroyed) return; // the client gave up (a stopped poller)
  if (r.ok) return sendJson(res, 200, { ok: true, result: r.result });
  sendJson(res, r.status, {
    ok: false,
    error_code: r.status,
    description: r.description,
    ...(r.retryAfter !== undefined ? { parameters: { retry_after: r.retryAfter } } : {}),
  });
}

/** Parameters from the query string and a JSON, url-encoded or multipart body. */
function parseParams(req: RecordedRequest): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(req.query);
  const type = String(req.headers["content-type"] ?? "");
  if (req.body && typeof req.body === "object") return { ...out, ...(req.body as Record<string, unknown>) };
  if (type.includes("application/x-www-form-urlencoded")) return { ...out, ...Object.fromEntries(new URLSearchParams(req.rawBody)) };
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  if (type.includes("multipart/form-data") && boundary) {
    for (const part of req.rawBody.split(`--${boundary[1] ?? boundary[2]}`)) {
      const m = /name="([^"]+)"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/.exec(part);
      if (m) out[m[1]!] = m[2];
    }
  }
  return out;
}

/** The file parts of a multipart body (parts with a filename), read from its bytes. */
function uploadedFiles(req: RecordedRequest): { fileName: string; bytes: Buffer }[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(String(req.headers["content-type"] ?? ""));
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const files: { fileName: string; bytes: Buffer }[] = [];
  let at = req.rawBytes.indexOf(delimiter);
  while (at >= 0) {
    const next = req.rawBytes.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    const part = req.rawBytes.subarray(at + delimiter.length, next);
    const headEnd = part.indexOf("\r\n\r\n");
    const name = /filename=(?:"([^"]*)"|([^;\r\n]+))/i.exec(part.subarray(0, Math.max(0, headEnd)).toString("latin1"));
    // The part's bytes end before the CRLF that precedes the next delimiter.
    if (headEnd >= 0 && name) files.push({ fileName: name[1] ?? name[2]!, bytes: Buffer.from(part.subarray(headEnd + 4, part.length - 2)) });
    at = next;
  }
  return files;
}

/** Form bodies carry objects as JSON strings. */
function json(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** The text a user would see: tags removed and entities decoded when parse_mode is HTML. */
function visibleText(p: Record<string, unknown>): string {
  const text = String(p.text ?? "");
  if (p.parse_mode !== "HTML") return text;
  return text.replace(/<[^>]*>/g, "").replace(/&(lt|gt|quot|amp|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', amp: "&" };
    if (named[e.toLowerCase()]) return named[e.toLowerCase()]!;
    return String.fromCodePoint(e[1]?.toLowerCase() === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });
}

/** A lone UTF-16 surrogate (half an emoji) cannot be encoded in UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Telegram refuses a string parameter with half an emoji in it ("text must be encoded in UTF-8"). */
function badEncoding(p: Record<string, unknown>): Result | undefined {
  for (const [name, value] of Object.entries(p)) {
    if (typeof value === "string" && LONE_SURROGATE.test(value)) {
      return { ok: false, status: 400, description: `Bad Request: ${name === "text" ? "text" : "strings"} must be encoded in UTF-8` };
    }
  }
  return undefined;
}

/** Telegram's checks on a message text: entities parse, not empty, at most 4096 visible characters. */
function checkText(p: Record<string, unknown>): Result | undefined {
  const text = String(p.text ?? "");
  if (p.parse_mode === "HTML") {
    const problem = htmlProblem(text);
    if (problem) return { ok: false, status: 400, description: `Bad Request: can't parse entities: ${problem}` };
  } else if (p.parse_mode !== undefined) {
    return { ok: false, status: 400, description: `Bad Request: unsupported parse_mode ${String(p.parse_mode)} in this fake` };
  }
  const visible = visibleText(p);
  if (!visible.trim()) return { ok: false, status: 400, description: "Bad Request: message text is empty" };
  if (visible.length > 4096) return { ok: false, status: 400, description: "Bad Request: message is too long" };
  return undefined;
}

/** A small version of Telegram's HTML parser: allowed tags only, balanced, known entities only. */
export function htmlProblem(html: string): string | undefined {
  const stack: string[] = [];
  const token = /<(\/?)([^\s>/]*)([^>]*)>|<|&([^;\s<>&]*);?/g;
  for (const m of html.matchAll(token)) {
    const at = m.index;
    if (m[0] === "<") return `Unsupported start tag at byte offset ${at}`;
    if (m[0].startsWith("&")) {
      if (!/^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);$/i.test(m[0])) return `Character entity expected at byte offset ${at}`;
      continue;
    }
    const [, close, rawName, attrs] = m;
    const name = rawName!.toLowerCase();
    if (!ALLOWED_TAGS.has(name)) return `Unsupported start tag "${name}" at byte offset ${at}`;
    if (close) {
      if (stack.pop() !== name) return `Unmatched end tag at byte offset ${at}, expected "</${stack.at(-1) ?? ""}>", found "</${name}>"`;
    } else {
      if (name === "a" && !/^\s+href\s*=\s*"[^"]*"\s*$/.test(attrs!)) return `Bad <a> tag at byte offset ${at}`;
      stack.push(name);
    }
  }
  if (stack.length) return `Can't find end tag corresponding to start tag "${stack.at(-1)}"`;
  return undefined;
}
