/**
 * A user's Matrix device for tests: a real OlmMachine of the Matrix Rust
 * crypto (in memory) talking to the fake homeserver over HTTP with its own
 * access token — key upload/query/claim and to-device messages — and
 * putting its encrypted room events into the fake's timeline as that user.
 * It decrypts what Lilo sent. `holdRoomKeys` keeps the next room-key shares
 * back until `releaseRoomKeys`, for a key that arrives late.
 */
import {
  Attachment,
  DecryptionSettings,
  DeviceId,
  DeviceLists,
  EncryptionSettings,
  initAsync,
  OlmMachine,
  RoomId,
  TrustRequirement,
  UserId,
  type ToDeviceRequest,
} from "@matrix-org/matrix-sdk-crypto-wasm";
import { sendOutgoing, type MatrixHttp } from "../../adapters/matrix/crypto/outgoing.ts";
import type { FakeMatrix, SentEvent } from "./fake-matrix.ts";

/** New per call: the binding takes ownership of what it is passed. */
const decryption = () => new DecryptionSettings(TrustRequirement.Untrusted);

export class CryptoTestClient {
  /** Room-key shares kept back while `holding`. */
  private held: ToDeviceRequest[] = [];
  private holding = false;

  private constructor(
    private readonly hs: FakeMatrix,
    readonly userId: string,
    private readonly machine: OlmMachine,
    private readonly http: MatrixHttp,
  ) {}

  /** A new device of `userId` on `hs`, its keys uploaded. */
  static async create(hs: FakeMatrix, userId: string, deviceId = "USERDEVICE"): Promise<CryptoTestClient> {
    await initAsync();
    const token = hs.addClient(userId, deviceId);
    const http: MatrixHttp = async (method, path, body) => {
      const res = await fetch(`${hs.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as unknown;
      if (!res.ok) throw new Error(`fake Matrix ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const machine = await OlmMachine.initialize(new UserId(userId), new DeviceId(deviceId));
    const client = new CryptoTestClient(hs, userId, machine, http);
    await client.sync();
    return client;
  }

  /** Reads this device's sync (to-device messages, device lists, key counts) and sends what the machine queued. */
  async sync(): Promise<void> {
    const answer = (await this.http("GET", "/_matrix/client/v3/sync")) as {
      to_device: { events: unknown[] };
      device_lists: { changed: string[] };
      device_one_time_keys_count: Record<string, number>;
    };
    const lists = new DeviceLists(answer.device_lists.changed.map((u) => new UserId(u)));
    await this.machine.receiveSyncChanges(
      JSON.stringify(answer.to_device.events),
      lists,
      new Map(Object.entries(answer.device_one_time_keys_count)),
      undefined,
      decryption(),
    );
    for (const req of await this.machine.outgoingRequests()) await sendOutgoing(this.machine, this.http, req);
  }

  /** Keeps the room-key shares of the next messages back (they are not sent) until `releaseRoomKeys`. */
  holdRoomKeys(): void {
    this.holding = true;
  }

  /** Sends the room-key shares kept back. */
  async releaseRoomKeys(): Promise<void> {
    this.holding = false;
    for (const req of this.held.splice(0)) await sendOutgoing(this.machine, this.http, req);
  }

  /** An encrypted text message to `roomId`; returns its event id. */
  sendText(roomId: string, body: string): Promise<string> {
    return this.sendEncrypted(roomId, "m.room.message", { msgtype: "m.text", body });
  }

  /** An encrypted 👍-style reaction on `eventId`. */
  react(roomId: string, eventId: string, key: string): Promise<string> {
    return this.sendEncrypted(roomId, "m.reaction", { "m.relates_to": { rel_type: "m.annotation", event_id: eventId, key } });
  }

  /** An encrypted photo: the bytes encrypted as an attachment, uploaded, and the message with its file key. */
  async sendImage(roomId: string, bytes: Uint8Array, mimetype: string, caption: string): Promise<string> {
    const attachment = Attachment.encrypt(bytes);
    const info = JSON.parse(attachment.mediaEncryptionInfo!) as Record<string, unknown>;
    const url = this.hs.upload(attachment.encryptedData, "application/octet-stream");
    return this.sendEncrypted(roomId, "m.room.message", {
      msgtype: "m.image",
      body: caption,
      filename: "photo.png",
      info: { mimetype, size: bytes.length },
      file: { ...info, url },
    });
  }

  /** Any event encrypted for the room's members; returns its event id. */
  async sendEncrypted(roomId: string, type: string, content: Record<string, unknown>): Promise<string> {
    const members = [...(this.hs.members.get(roomId) ?? [])];
    const users = () => members.map((m) => new UserId(m));
    await this.machine.updateTrackedUsers(users());
    for (const req of await this.machine.outgoingRequests()) await sendOutgoing(this.machine, this.http, req);
    const claim = await this.machine.getMissingSessions(users());
    if (claim) await sendOutgoing(this.machine, this.http, claim);
    for (const req of await this.machine.shareRoomKey(new RoomId(roomId), users(), new EncryptionSettings())) {
      if (this.holding) this.held.push(req);
      else await sendOutgoing(this.machine, this.http, req);
    }
    const encrypted = JSON.parse(await this.machine.encryptRoomEvent(new RoomId(roomId), type, JSON.stringify(content))) as Record<string, unknown>;
    return this.hs.sendEvent(roomId, this.userId, "m.room.encrypted", encrypted);
  }

  /** What Lilo wrote in an event she sent (decrypted when encrypted): its type and content. */
  async read(sent: SentEvent): Promise<{ type: string; content: Record<string, unknown> }> {
    if (sent.type !== "m.room.encrypted") return { type: sent.type, content: sent.content };
    await this.sync();
    const event = { event_id: sent.eventId, type: sent.type, sender: this.hs.botUserId, origin_server_ts: Date.now(), content: sent.content };
    const result = await this.machine.decryptRoomEvent(JSON.stringify(event), new RoomId(sent.roomId), decryption());
    return JSON.parse(result.event) as { type: string; content: Record<string, unknown> };
  }

  close(): void {
    this.machine.close();
  }
}
