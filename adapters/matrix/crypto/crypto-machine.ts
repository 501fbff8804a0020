import {
  DecryptionErrorCode,
  DecryptionSettings,
  DeviceId,
  DeviceLists,
  EncryptionSettings,
  initAsync,
  MegolmDecryptionError,
  OlmMachine,
  RoomId,
  TrustRequirement,
  UserId,
} from "@matrix-org/matrix-sdk-crypto-wasm";
import { existsSync } from "node:fs";
import { describeError, type Lilo, type Logger } from "../../../core/index.ts";
import { MatrixCryptoError } from "./crypto-error.ts";
import { dropDatabase } from "./idb.ts";
import { IdbTable } from "./idb-table.ts";
import { restoreLegacyFile } from "./legacy-store-file.ts";
import { sendOutgoing, type MatrixHttp } from "./outgoing.ts";

/** The parts of a /sync answer the crypto reads. */
export interface CryptoSync {
  to_device?: { events?: unknown[] };
  device_lists?: { changed?: string[]; left?: string[] };
  device_one_time_keys_count?: Record<string, number>;
  device_unused_fallback_key_types?: string[];
}

/** A room event as it comes in a sync timeline. */
export interface TimelineEvent {
  event_id: string;
  type: string;
  sender: string;
  origin_server_ts?: number;
  content?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The outcome of decrypting a room event: the plain event, a missing key (try again later), or a failure for good. */
export type Decrypted = { event: TimelineEvent } | { missingKey: true } | { failed: string };

export interface CryptoOptions {
  userId: string;
  deviceId: string;
  /** Where the store is kept: Lilo's key-store table (restored on open, written after every change). */
  keys: Lilo["deviceKeys"];
  /** The store file of an earlier Lilo version, moved into the table when the table has no store of this device yet. */
  legacyFile?: string;
  http: MatrixHttp;
  logger: Logger;
}

/**
 * Senders' devices need not be verified: Lilo talks with whoever the allowlist names, as in an unencrypted room.
 * A new object per call: the binding takes ownership of what it is passed.
 */
const decryption = () => new DecryptionSettings(TrustRequirement.Untrusted);

let ready: Promise<void> | undefined;

/** Where a device's store came from at this start: Lilo's database, a legacy store file (moved into the database now), or nowhere (new keys). */
export type StoreOrigin = "database" | "legacy-file" | "new";

/** The name of a device's store in Lilo's key-store table. */
export const keyStoreName = (deviceId: string): string => `matrix/${deviceId}`;

/**
 * Lilo's Matrix device: an OlmMachine of the Matrix Rust crypto (WebAssembly)
 * with its keys, Olm sessions and Megolm room keys, driven by hand — what the
 * homeserver sends in each sync goes in (`receiveSync`), the requests the
 * machine wants sent go out through `http`, and the store (an IndexedDB
 * database in memory) is written into Lilo's database after every change
 * (idb-table.ts), before the sync that brought it is confirmed. One
 * operation runs at a time.
 */
export class MatrixCrypto {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly machine: OlmMachine,
    private readonly options: CryptoOptions,
    private readonly table: IdbTable,
    /** Where the store came from at this start. */
    readonly origin: StoreOrigin,
  ) {}

  /** True when the store was created now (new keys) rather than read. */
  get created(): boolean {
    return this.origin === "new";
  }

  /**
   * Opens the device's store from Lilo's database (or, once, from a legacy
   * store file, which is written into the database), or creates new keys
   * when there is none; uploads what the server lacks.
   */
  static async open(options: CryptoOptions): Promise<MatrixCrypto> {
    ready ??= initAsync();
    await ready;
    const storeName = `lilo-matrix-crypto-${options.deviceId}`;
    const dbName = `${storeName}::matrix-sdk-crypto`;
    const table = new IdbTable(dbName, keyStoreName(options.deviceId), options.keys);
    let origin: StoreOrigin = "new";
    if (await table.restore()) origin = "database";
    else if (options.legacyFile && existsSync(options.legacyFile)) {
      const name = await restoreLegacyFile(options.legacyFile);
      if (name !== dbName) throw new MatrixCryptoError(`${options.legacyFile} holds the keys of another device (${name})`);
      origin = "legacy-file";
    } else await dropDatabase(dbName);
    let machine: OlmMachine;
    try {
      machine = await OlmMachine.initialize(new UserId(options.userId), new DeviceId(options.deviceId), storeName);
    } catch (err) {
      throw new MatrixCryptoError(`the Matrix crypto store of device ${options.deviceId} cannot be opened`, { cause: err });
    }
    const crypto = new MatrixCrypto(machine, options, table, origin);
    await crypto.serial(() => crypto.flush());
    return crypto;
  }

  /** The device's public identity key (curve25519) and fingerprint key (ed25519), base64. */
  get keys(): { curve25519: string; ed25519: string } {
    const { curve25519, ed25519 } = this.machine.identityKeys;
    return { curve25519: curve25519.toBase64(), ed25519: ed25519.toBase64() };
  }

  /** A sync's to-device messages (room keys), device-list changes and one-time-key counts; then the requests they cause. */
  receiveSync(sync: CryptoSync): Promise<void> {
    return this.serial(async () => {
      const lists = new DeviceLists(
        (sync.device_lists?.changed ?? []).map((u) => new UserId(u)),
        (sync.device_lists?.left ?? []).map((u) => new UserId(u)),
      );
      const counts = new Map(Object.entries(sync.device_one_time_keys_count ?? {}));
      const fallback = sync.device_unused_fallback_key_types ? new Set(sync.device_unused_fallback_key_types) : undefined;
      await this.machine.receiveSyncChanges(JSON.stringify(sync.to_device?.events ?? []), lists, counts, fallback, decryption());
      await this.flush();
    });
  }

  /** Decrypts an `m.room.encrypted` event of `roomId` into the event its sender wrote (relation kept). */
  decrypt(roomId: string, event: TimelineEvent): Promise<Decrypted> {
    return this.serial(() => this.decryptNow(roomId, event));
  }

  private async decryptNow(roomId: string, event: TimelineEvent): Promise<Decrypted> {
    try {
      const result = await this.machine.decryptRoomEvent(JSON.stringify(event), new RoomId(roomId), decryption());
      const inner = JSON.parse(result.event) as { type?: unknown; content?: Record<string, unknown> };
      if (typeof inner.type !== "string") return { failed: "the decrypted event has no type" };
      const content = { ...(inner.content ?? {}) };
      // Relations (reactions, replies, edits) travel outside the ciphertext so the server can aggregate them.
      const relation = event.content?.["m.relates_to"];
      if (relation && !content["m.relates_to"]) content["m.relates_to"] = relation;
      return { event: { ...event, type: inner.type, content } };
    } catch (err) {
      if (err instanceof MegolmDecryptionError && [DecryptionErrorCode.MissingRoomKey, DecryptionErrorCode.UnknownMessageIndex].includes(err.code)) {
        return { missingKey: true };
      }
      return { failed: err instanceof MegolmDecryptionError ? err.description : describeError(err) };
    }
  }

  /**
   * Encrypts one event for `roomId`, whose joined members are `members`:
   * their devices are queried, Olm sessions made, the room key shared with
   * every device that lacks it; returns the `m.room.encrypted` content.
   */
  encrypt(roomId: string, type: string, content: Record<string, unknown>, members: string[]): Promise<Record<string, unknown>> {
    return this.serial(async () => {
      const users = () => members.map((m) => new UserId(m));
      const room = new RoomId(roomId);
      await this.machine.updateTrackedUsers(users());
      await this.flush(false);
      const claim = await this.machine.getMissingSessions(users());
      if (claim) await sendOutgoing(this.machine, this.options.http, claim);
      for (const req of await this.machine.shareRoomKey(room, users(), new EncryptionSettings())) await sendOutgoing(this.machine, this.options.http, req);
      const encrypted = JSON.parse(await this.machine.encryptRoomEvent(room, type, JSON.stringify(content))) as Record<string, unknown>;
      // The message index moved on: it must not be used twice after a restart.
      await this.save();
      return encrypted;
    });
  }

  /** Sends what the machine has queued (key upload, device queries, key shares); finally writes the store. */
  async flushNow(): Promise<void> {
    await this.serial(() => this.flush());
  }

  /** Stops the machine once the running operation is done (the store is in the database); later calls fail. */
  async close(): Promise<void> {
    await this.serial(async () => {
      this.machine.close();
      this.closed = true;
    });
  }

  private async flush(save = true): Promise<void> {
    // Answers can cause new requests (an upload after a query); a failed one is offered again at the next flush.
    for (let round = 0, failed = false; round < 5 && !failed; round++) {
      const requests = await this.machine.outgoingRequests();
      if (!requests.length) break;
      for (const req of requests) {
        // One failing request (a server refusing a key) must not hold back the others.
        await sendOutgoing(this.machine, this.options.http, req).catch((err: unknown) => {
          failed = true;
          this.options.logger.warn("matrix crypto request failed", { error: describeError(err) });
        });
      }
    }
    if (save) await this.save();
  }

  private save(): Promise<void> {
    return this.table.save();
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const guarded = () => (this.closed ? Promise.reject(new MatrixCryptoError("the Matrix crypto is stopped")) : job());
    const run = this.queue.then(guarded, guarded);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
