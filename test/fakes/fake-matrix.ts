/**
 * A fake Matrix homeserver on 127.0.0.1 for tests with the real
 * matrix-bot-sdk `MatrixClient` (client-server API v3, the endpoints the SDK
 * 0.8 calls on start, sync, join/leave, send, typing and redact).
 *
 * Everything the bot can see goes through one ordered log: `invite`,
 * `sendText`, `react` and the bot's own sends append entries; `/sync?since=N`
 * answers every entry after N at once, or long-polls until one arrives (up to
 * the `timeout` the client asked for). As on a real server, the bot's own
 * events come back in its timeline, and it only sees rooms it has joined;
 * on joining, it sees the room's latest earlier events too. A sync gap can be
 * staged: `gap` makes a room's next sync `limited`, and `joinInGap` /
 * `leaveInGap` change the members with the member event only in that
 * limited sync's `state` section (as a real server sends it after a gap).
 * End-to-end encryption (fake-matrix-keys.ts): key upload/query/claim and
 * to-device messages for the bot and for test clients added with
 * `addClient` (their token's own /sync answers their to-device messages,
 * device-list changes and key counts); the bot's syncs carry the same.
 * `encryptRoom` turns a room's encryption on (its state event).
 *
 * ```ts
 * const hs = await startFakeMatrix({ botUserId: "@lilo:fake", accessToken: "t" });
 * hs.invite("!a:fake", "@chris:fake");
 * await hs.waitFor(() => hs.joined.has("!a:fake"));
 * const id = hs.sendText("!a:fake", "@chris:fake", "Hallo");
 * const answer = await hs.waitForSent((e) => e.type === "m.room.message");
 * ```
 */
import type { ServerResponse } from "node:http";
import { sendJson, startFakeServer, type RecordedRequest } from "./http-server.ts";
import { FakeKeyServer, type Caller } from "./fake-matrix-keys.ts";

/** An event the bot sent (message, reaction, redaction). */
/** One joined room in a /sync answer, as the fake sends it. */
interface SyncJoinedRoom {
  timeline: { events: unknown[]; limited: boolean; prev_batch: string };
  state: { events: unknown[] };
  ephemeral: { events: unknown[] };
  account_data: { events: unknown[] };
}

export interface SentEvent {
  roomId: string;
  type: string;
  eventId: string;
  content: Record<string, unknown>;
}

/** One room event as it appears in a sync timeline. */
export interface FakeEvent {
  event_id: string;
  type: string;
  sender: string;
  content: Record<string, unknown>;
  origin_server_ts: number;
  state_key?: string;
  redacts?: string;
  unsigned: { age: number };
}

export interface FakeMatrix {
  url: string;
  botUserId: string;
  /** Every HTTP request, in arrival order. */
  requests: RecordedRequest[];
  /** Events the bot sent, in order. */
  sent: SentEvent[];
  /** Typing notifications: room and on/off. */
  typing: { roomId: string; typing: boolean }[];
  /** Rooms the bot has joined / left (rejected invitations count as left). */
  joined: Set<string>;
  left: Set<string>;
  /** The newest `since` token the bot synced with: everything before it is confirmed (its token was saved). */
  readonly lastSince: number;
  /** The sync position after the newest event (what a sync would return as next_batch now). */
  position(): number;
  /** Redactions the bot asked for. */
  redactions: { roomId: string; eventId: string }[];
  /** Joined members of each room (the bot included once it joined), as `joined_members` reports them. */
  members: Map<string, Set<string>>;
  /** An invitation of the bot to `roomId` by a member of it (who becomes a member if the room is new). */
  invite(roomId: string, fromUserId: string): void;
  /** A user joins the room: an `m.room.member` join event in its timeline. */
  addMember(roomId: string, userId: string): void;
  /** A user leaves the room: an `m.room.member` leave event in its timeline. */
  removeMember(roomId: string, userId: string): void;
  /** A sync gap: the room's next sync has `timeline.limited` set (and nothing new in `state`). */
  gap(roomId: string): void;
  /** A user joins during a sync gap: the join event comes only in the `state` section of a limited sync. */
  joinInGap(roomId: string, userId: string): void;
  /** A user leaves during a sync gap: the leave event comes only in the `state` section of a limited sync. */
  leaveInGap(roomId: string, userId: string): void;
  /** How many `joined_members` requests the bot made for `roomId`. */
  memberRequests(roomId: string): number;
  /** A user's text message; returns its event id. */
  sendText(roomId: string, senderId: string, body: string, extra?: Record<string, unknown>): string;
  /** A user's 👍-style annotation on `eventId`; returns the reaction's event id. */
  react(roomId: string, senderId: string, eventId: string, key: string): string;
  /** Any room event from a user (e.g. `m.room.encrypted`); returns its event id. */
  sendEvent(roomId: string, senderId: string, type: string, content: Record<string, unknown>): string;
  /** Keeps bytes in the media repository; returns their `mxc://` URI. */
  upload(bytes: Uint8Array | string, contentType: string): string;
  /** What the media repository holds under an `mxc://` URI (the bot's uploads too). */
  uploaded(uri: string): { bytes: Buffer; contentType: string } | undefined;
  /** Media ids the bot downloaded, in order. */
  downloads: string[];
  /** Another Matrix client (a user's device) with its own access token, for the key and to-device endpoints; returns the token. */
  addClient(userId: string, deviceId: string): string;
  /** Turns on encryption in a room: an `m.room.encryption` state event from `senderId`. */
  encryptRoom(roomId: string, senderId: string): void;
  /** Keys and to-device messages. */
  keys: FakeKeyServer;
  /** Polls `predicate` until it holds; throws after `timeoutMs` with what was sent. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** Waits for a sent event matching `predicate` (among those sent after index `from`). */
  waitForSent(predicate: (e: SentEvent) => boolean, timeoutMs?: number, from?: number): Promise<SentEvent>;
  close(): Promise<void>;
}

export interface FakeMatrixOptions {
  botUserId?: string;
  accessToken?: string;
}

/**
 * A log entry: an invitation, a timeline event, a state event after a gap ("state"), a bare gap ("gap", no
 * event), a to-device message for the bot ("to-device", in `toDevice`) or a user whose devices changed ("devices").
 */
type Entry = {
  seq: number;
  kind: "invite" | "timeline" | "state" | "gap" | "to-device" | "devices";
  roomId: string;
  event?: FakeEvent;
  toDevice?: unknown;
  userId?: string;
};

/** A test client's device: its to-device inbox and the users whose devices changed since its last sync. */
type ClientDevice = Caller & { inbox: unknown[]; changed: Set<string> };

/** How many earlier events a newly joined room's timeline shows (Synapse's default timeline limit). */
const HISTORY_ON_JOIN = 10;

/** Starts the fake homeserver. */
export async function startFakeMatrix(options: FakeMatrixOptions = {}): Promise<FakeMatrix> {
  const botUserId = options.botUserId ?? "@lilo:fake";
  const token = options.accessToken ?? "fake-token";
  const log: Entry[] = [];
  const waiting = new Set<() => void>();
  const invites = new Set<string>();
  /** Events of rooms the bot is not in, newest last: a room's history, shown to the bot when it joins. */
  const history = new Map<string, FakeEvent[]>();
  const callers = new Map<string, Caller>([[token, { userId: botUserId, deviceId: "FAKEDEVICE" }]]);
  const clients = new Map<string, ClientDevice>();
  /** Room id → content of its `m.room.encryption` state. */
  const encryption = new Map<string, Record<string, unknown>>();
  const wakeAll = () => {
    for (const wake of [...waiting]) wake();
  };
  const keys = new FakeKeyServer({
    deliver(userId, deviceId, event) {
      if (userId === botUserId) {
        log.push({ seq: log.length + 1, kind: "to-device", roomId: "", toDevice: event });
        wakeAll();
      } else clients.get(`${userId}|${deviceId}`)?.inbox.push(event);
    },
    devicesChanged(userId) {
      log.push({ seq: log.length + 1, kind: "devices", roomId: "", userId });
      for (const c of clients.values()) if (c.userId !== userId) c.changed.add(userId);
      wakeAll();
    },
  });
  let nextEvent = 1;
  let lastTs = 0;
  let closed = false;
  let lastSince = 0;

  const append = (
    kind: Exclude<Entry["kind"], "gap">,
    roomId: string,
    sender: string,
    type: string,
    content: Record<string, unknown>,
    extra: Partial<FakeEvent> = {},
  ): FakeEvent => {
    // Strictly increasing, so "before" and "after" are never the same millisecond.
    lastTs = Math.max(Date.now(), lastTs + 1);
    const event: FakeEvent = { event_id: `$ev${nextEvent++}:fake`, type, sender, content, origin_server_ts: lastTs, unsigned: { age: 0 }, ...extra };
    // A real server only shows the bot rooms it is in (and invitations to others).
    if (kind === "invite" || fake.joined.has(roomId)) log.push({ seq: log.length + 1, kind, roomId, event });
    else history.set(roomId, [...(history.get(roomId) ?? []), event].slice(-HISTORY_ON_JOIN));
    for (const wake of [...waiting]) wake();
    return event;
  };

  const route = async (req: RecordedRequest, res: ServerResponse): Promise<void> => {
    const caller = callers.get(String(req.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!caller) return matrixError(res, 401, "M_UNKNOWN_TOKEN", "Unknown access token");
    // Authenticated media (client v1, what the SDK calls) and the older media/v3 path.
    const download = /^\/_matrix\/(?:client\/v1\/media|media\/v3)\/download\/([^/]+)\/([^/]+)/.exec(req.path);
    if (download) return serveMedia(res, decodeURIComponent(download[2]!));
    if (req.method === "POST" && /^\/_matrix\/media\/(?:v3|r0)\/upload$/.test(req.path)) {
      const uri = fake.upload(req.rawBytes, String(req.headers["content-type"] ?? "application/octet-stream"));
      return sendJson(res, 200, { content_uri: uri });
    }
    const p = req.path.replace(/^\/_matrix\/client\/(v3|r0)/, "");
    const parts = p.split("/").filter(Boolean).map(decodeURIComponent);
    const body = (typeof req.body === "object" && req.body ? req.body : {}) as Record<string, unknown>;
    if (req.path === "/_matrix/client/versions") return sendJson(res, 200, { versions: ["v1.1", "v1.5", "v1.11"], unstable_features: {} });
    if (p === "/account/whoami") return sendJson(res, 200, { user_id: caller.userId, device_id: caller.deviceId });
    if (keys.route(caller, req.method ?? "", parts, body, res)) return;
    if (caller.userId !== botUserId)
      return p === "/sync" ? clientSync(caller, res) : matrixError(res, 404, "M_UNRECOGNIZED", `Not for test clients: ${req.path}`);
    if (p === "/joined_rooms") return sendJson(res, 200, { joined_rooms: [...fake.joined] });
    if (p === "/sync") return sync(req, res);
    if (parts[0] === "rooms" && parts[2] === "state" && req.method === "GET") {
      const content = parts[3] === "m.room.encryption" ? encryption.get(parts[1]!) : undefined;
      return content ? sendJson(res, 200, content) : matrixError(res, 404, "M_NOT_FOUND", "Event not found.");
    }
    if (parts[0] === "rooms" && parts[2] === "joined_members" && req.method === "GET") {
      // As on a real server: only a member may list the members.
      if (!fake.joined.has(parts[1]!)) return matrixError(res, 403, "M_FORBIDDEN", "You aren't a member of the room");
      const joined = Object.fromEntries([...(fake.members.get(parts[1]!) ?? [])].map((id) => [id, { display_name: id.slice(1).split(":")[0] }]));
      return sendJson(res, 200, { joined });
    }
    if (parts[0] === "user" && parts[2] === "filter" && req.method === "POST") return sendJson(res, 200, { filter_id: "1" });
    if (parts[0] === "user" && parts[2] === "account_data") {
      return req.method === "GET" ? matrixError(res, 404, "M_NOT_FOUND", "Account data not found") : sendJson(res, 200, {});
    }
    if (parts[0] === "join" || (parts[0] === "rooms" && parts[2] === "join")) {
      const roomId = parts[0] === "join" ? parts[1]! : parts[1]!;
      if (!invites.has(roomId) && !fake.joined.has(roomId)) return matrixError(res, 403, "M_FORBIDDEN", "You are not invited to this room.");
      invites.delete(roomId);
      // As with history_visibility "shared" (the default): the sync after joining shows the room's latest events.
      for (const event of history.get(roomId) ?? []) log.push({ seq: log.length + 1, kind: "timeline", roomId, event });
      history.delete(roomId);
      fake.joined.add(roomId);
      memberSet(roomId).add(botUserId);
      append("timeline", roomId, botUserId, "m.room.member", { membership: "join" }, { state_key: botUserId });
      return sendJson(res, 200, { room_id: roomId });
    }
    if (parts[0] === "rooms" && parts[2] === "leave") {
      invites.delete(parts[1]!);
      fake.joined.delete(parts[1]!);
      fake.members.get(parts[1]!)?.delete(botUserId);
      fake.left.add(parts[1]!);
      return sendJson(res, 200, {});
    }
    if (parts[0] === "rooms" && parts[2] === "typing") {
      fake.typing.push({ roomId: parts[1]!, typing: !!body.typing });
      return sendJson(res, 200, {});
    }
    if (parts[0] === "rooms" && (parts[2] === "send" || parts[2] === "redact") && req.method === "PUT") {
      const roomId = parts[1]!;
      if (!fake.joined.has(roomId)) return matrixError(res, 403, "M_FORBIDDEN", "You are not in this room.");
      if (parts[2] === "redact") {
        fake.redactions.push({ roomId, eventId: parts[3]! });
        const ev = append("timeline", roomId, botUserId, "m.room.redaction", body, { redacts: parts[3]! });
        return sendJson(res, 200, { event_id: ev.event_id });
      }
      const ev = append("timeline", roomId, botUserId, parts[3]!, body);
      fake.sent.push({ roomId, type: parts[3]!, eventId: ev.event_id, content: body });
      return sendJson(res, 200, { event_id: ev.event_id });
    }
    return matrixError(res, 404, "M_UNRECOGNIZED", `Unrecognized request: ${req.method} ${req.path}`);
  };

  const media = new Map<string, { bytes: Buffer; contentType: string }>();
  const serveMedia = (res: ServerResponse, id: string): void => {
    const m = media.get(id);
    if (!m) return matrixError(res, 404, "M_NOT_FOUND", "Media not found");
    fake.downloads.push(id);
    res.writeHead(200, { "content-type": m.contentType, "content-length": String(m.bytes.length) });
    res.end(m.bytes);
  };

  const sync = async (req: RecordedRequest, res: ServerResponse): Promise<void> => {
    const since = Number(req.query.get("since") ?? "0") || 0;
    lastSince = Math.max(lastSince, since);
    const timeout = Math.min(Number(req.query.get("timeout") ?? "0") || 0, 30_000);
    // As on a real server, the first sync (no `since`) answers at once; later ones long-poll.
    if (log.length <= since && timeout > 0 && !closed && req.query.has("since")) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiting.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, timeout);
        waiting.add(wake);
      });
    }
    if (res.destroyed) return;
    const rooms: { join: Record<string, SyncJoinedRoom>; invite: Record<string, unknown>; leave: Record<string, unknown> } = {
      join: {},
      invite: {},
      leave: {},
    };
    const toDevice: unknown[] = [];
    const changed = new Set<string>();
    for (const e of log.slice(since)) {
      if (e.kind === "to-device") toDevice.push(e.toDevice);
      else if (e.kind === "devices") changed.add(e.userId!);
      else if (e.kind === "invite") {
        rooms.invite[e.roomId] = { invite_state: { events: [e.event] } };
      } else {
        const room = (rooms.join[e.roomId] ??= {
          timeline: { events: [], limited: false, prev_batch: `p${since}` },
          state: { events: [] },
          ephemeral: { events: [] },
          account_data: { events: [] },
        });
        if (e.kind === "timeline") room.timeline.events.push(e.event);
        else {
          // After a gap the server sends the state as of the timeline's start, and the timeline is marked limited.
          room.timeline.limited = true;
          if (e.event) room.state.events.push(e.event);
        }
      }
    }
    sendJson(res, 200, {
      next_batch: String(log.length),
      rooms,
      account_data: { events: [] },
      presence: { events: [] },
      to_device: { events: toDevice },
      device_lists: { changed: [...changed], left: [] },
      ...keys.syncCounts({ userId: botUserId, deviceId: "FAKEDEVICE" }),
    });
  };

  /** A test client's sync: its to-device messages (each delivered once), device-list changes and key counts, no rooms. */
  const clientSync = (caller: Caller, res: ServerResponse): void => {
    const device = clients.get(`${caller.userId}|${caller.deviceId}`)!;
    const events = device.inbox.splice(0);
    const changed = [...device.changed];
    device.changed.clear();
    sendJson(res, 200, { next_batch: "c", rooms: {}, to_device: { events }, device_lists: { changed, left: [] }, ...keys.syncCounts(caller) });
  };

  const server = await startFakeServer(route);
  const memberSet = (roomId: string): Set<string> => {
    let set = fake.members.get(roomId);
    if (!set) fake.members.set(roomId, (set = new Set()));
    return set;
  };

  const fake: FakeMatrix = {
    url: server.url,
    botUserId,
    requests: server.requests,
    sent: [],
    typing: [],
    joined: new Set(),
    left: new Set(),
    redactions: [],
    members: new Map(),
    get lastSince() {
      return lastSince;
    },
    position: () => log.length,
    keys,
    addClient(userId, deviceId) {
      const clientToken = `token-${userId}-${deviceId}`;
      callers.set(clientToken, { userId, deviceId });
      clients.set(`${userId}|${deviceId}`, { userId, deviceId, inbox: [], changed: new Set() });
      return clientToken;
    },
    encryptRoom(roomId, senderId) {
      const content = { algorithm: "m.megolm.v1.aes-sha2" };
      encryption.set(roomId, content);
      append("timeline", roomId, senderId, "m.room.encryption", content, { state_key: "" });
    },
    invite(roomId, fromUserId) {
      invites.add(roomId);
      // Whoever invites is in the room; a new room starts with them.
      if (!fake.members.get(roomId)?.size) memberSet(roomId).add(fromUserId);
      append("invite", roomId, fromUserId, "m.room.member", { membership: "invite", displayname: "Lilo" }, { state_key: botUserId });
    },
    addMember(roomId, userId) {
      memberSet(roomId).add(userId);
      append("timeline", roomId, userId, "m.room.member", { membership: "join" }, { state_key: userId });
    },
    removeMember(roomId, userId) {
      fake.members.get(roomId)?.delete(userId);
      append("timeline", roomId, userId, "m.room.member", { membership: "leave" }, { state_key: userId });
    },
    gap(roomId) {
      if (!fake.joined.has(roomId)) throw new Error(`fake Matrix: a gap needs a joined room (${roomId})`);
      log.push({ seq: log.length + 1, kind: "gap", roomId });
      for (const wake of [...waiting]) wake();
    },
    joinInGap(roomId, userId) {
      if (!fake.joined.has(roomId)) throw new Error(`fake Matrix: a gap needs a joined room (${roomId})`);
      memberSet(roomId).add(userId);
      append("state", roomId, userId, "m.room.member", { membership: "join" }, { state_key: userId });
    },
    leaveInGap(roomId, userId) {
      if (!fake.joined.has(roomId)) throw new Error(`fake Matrix: a gap needs a joined room (${roomId})`);
      fake.members.get(roomId)?.delete(userId);
      append("state", roomId, userId, "m.room.member", { membership: "leave" }, { state_key: userId });
    },
    memberRequests(roomId) {
      return fake.requests.filter((r) => r.method === "GET" && decodeURIComponent(r.path).endsWith(`/rooms/${roomId}/joined_members`)).length;
    },
    sendText(roomId, senderId, body, extra = {}) {
      return append("timeline", roomId, senderId, "m.room.message", { msgtype: "m.text", body, ...extra }).event_id;
    },
    react(roomId, senderId, eventId, key) {
      return append("timeline", roomId, senderId, "m.reaction", { "m.relates_to": { rel_type: "m.annotation", event_id: eventId, key } }).event_id;
    },
    downloads: [],
    upload(bytes, contentType) {
      const id = `media${media.size + 1}`;
      media.set(id, { bytes: Buffer.from(bytes), contentType });
      return `mxc://fake.server/${id}`;
    },
    uploaded(uri) {
      return media.get(uri.replace("mxc://fake.server/", ""));
    },
    sendEvent(roomId, senderId, type, content) {
      return append("timeline", roomId, senderId, type, content).event_id;
    },
    async waitFor(predicate, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > until) {
          throw new Error(
            `fake Matrix: condition not met within ${timeoutMs} ms; sent so far: ${JSON.stringify(fake.sent.map((s) => [s.roomId, s.type, s.content.body ?? (s.content["m.relates_to"] as { key?: string } | undefined)?.key]))}`,
          );
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    async waitForSent(predicate, timeoutMs = 5_000, from = 0) {
      let found: SentEvent | undefined;
      await fake.waitFor(() => !!(found = fake.sent.slice(from).find(predicate)), timeoutMs);
      return found!;
    },
    async close() {
      closed = true;
      for (const wake of [...waiting]) wake();
      await server.close();
    },
  };
  return fake;
}

function matrixError(res: ServerResponse, status: number, errcode: string, error: string): void {
  sendJson(res, status, { errcode, error });
}
