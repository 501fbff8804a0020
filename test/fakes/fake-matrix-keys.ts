/**
 * The end-to-end-encryption part of the fake Matrix homeserver
 * (fake-matrix.ts): device keys, one-time and fallback keys, to-device
 * messages (client-server API v3, "End-to-end encryption" and "Send-to-Device
 * messaging"), as Synapse answers them: an upload of a one-time key id that
 * exists with other contents is refused (400), new device keys replace old
 * ones and count as a device-list change; a claim takes a one-time key, or
 * the fallback key when none is left.
 */
import type { ServerResponse } from "node:http";
import { sendJson } from "./http-server.ts";

/** Who a request comes from: the user and device of its access token. */
export interface Caller {
  userId: string;
  deviceId: string;
}

/** How the homeserver passes on what the key part produces. */
export interface KeyServerHooks {
  /** A to-device event for `userId`'s `deviceId`, to appear in that device's next sync. */
  deliver(userId: string, deviceId: string, event: { type: string; sender: string; content: unknown }): void;
  /** `userId`'s devices or keys changed: other users' syncs list them in `device_lists.changed`. */
  devicesChanged(userId: string): void;
}

type Json = Record<string, unknown>;
const deviceKey = (userId: string, deviceId: string) => `${userId}|${deviceId}`;

/** Keys and to-device routing of the fake homeserver. */
export class FakeKeyServer {
  /** user → device → signed device keys. */
  readonly devices = new Map<string, Map<string, Json>>();
  private readonly oneTime = new Map<string, Map<string, unknown>>();
  private readonly fallback = new Map<string, Map<string, unknown>>();
  /** Every to-device message sent, in order (for tests). */
  readonly toDeviceLog: { sender: string; type: string; userId: string; deviceId: string }[] = [];

  constructor(private readonly hooks: KeyServerHooks) {}

  /** The counts a sync reports to `caller`: unclaimed one-time keys per algorithm and unused fallback key types. */
  syncCounts(caller: Caller): { device_one_time_keys_count: Record<string, number>; device_unused_fallback_key_types: string[] } {
    const counts: Record<string, number> = {};
    for (const id of this.oneTime.get(deviceKey(caller.userId, caller.deviceId))?.keys() ?? []) {
      const alg = id.split(":")[0]!;
      counts[alg] = (counts[alg] ?? 0) + 1;
    }
    const fallbackTypes = [...(this.fallback.get(deviceKey(caller.userId, caller.deviceId))?.keys() ?? [])].map((id) => id.split(":")[0]!);
    return { device_one_time_keys_count: counts, device_unused_fallback_key_types: fallbackTypes };
  }

  /** Answers a key or to-device request (path without the `/_matrix/client/v3` prefix); false when the path is not one of them. */
  route(caller: Caller, method: string, parts: string[], body: Json, res: ServerResponse): boolean {
    if (method === "POST" && parts[0] === "keys" && parts[1] === "upload") return (this.upload(caller, body, res), true);
    if (method === "POST" && parts[0] === "keys" && parts[1] === "query") return (this.query(body, res), true);
    if (method === "POST" && parts[0] === "keys" && parts[1] === "claim") return (this.claim(body, res), true);
    if (method === "POST" && parts[0] === "keys" && parts[1] === "signatures") return (sendJson(res, 200, { failures: {} }), true);
    if (method === "PUT" && parts[0] === "sendToDevice") return (this.sendToDevice(caller, parts[1]!, body, res), true);
    return false;
  }

  private upload(caller: Caller, body: Json, res: ServerResponse): void {
    const key = deviceKey(caller.userId, caller.deviceId);
    const otks = this.oneTime.get(key) ?? new Map<string, unknown>();
    for (const [id, value] of Object.entries((body.one_time_keys ?? {}) as Json)) {
      const old = otks.get(id);
      if (old !== undefined && JSON.stringify(old) !== JSON.stringify(value)) {
        return sendJson(res, 400, { errcode: "M_INVALID_PARAM", error: `One time key ${id} already exists` });
      }
    }
    for (const [id, value] of Object.entries((body.one_time_keys ?? {}) as Json)) otks.set(id, value);
    this.oneTime.set(key, otks);
    if (body.fallback_keys) this.fallback.set(key, new Map(Object.entries(body.fallback_keys as Json)));
    if (body.device_keys) {
      const devices = this.devices.get(caller.userId) ?? new Map<string, Json>();
      const before = JSON.stringify(devices.get(caller.deviceId));
      devices.set(caller.deviceId, body.device_keys as Json);
      this.devices.set(caller.userId, devices);
      if (before !== JSON.stringify(body.device_keys)) this.hooks.devicesChanged(caller.userId);
    }
    sendJson(res, 200, { one_time_key_counts: this.syncCounts(caller).device_one_time_keys_count });
  }

  private query(body: Json, res: ServerResponse): void {
    const wanted = (body.device_keys ?? {}) as Record<string, string[]>;
    const device_keys: Record<string, Json> = {};
    for (const [userId, ids] of Object.entries(wanted)) {
      const all = this.devices.get(userId) ?? new Map<string, Json>();
      device_keys[userId] = Object.fromEntries([...all].filter(([id]) => !ids.length || ids.includes(id)));
    }
    sendJson(res, 200, { device_keys, failures: {} });
  }

  private claim(body: Json, res: ServerResponse): void {
    const wanted = (body.one_time_keys ?? {}) as Record<string, Record<string, string>>;
    const one_time_keys: Record<string, Record<string, Json>> = {};
    for (const [userId, devices] of Object.entries(wanted)) {
      for (const [deviceId, algorithm] of Object.entries(devices)) {
        const key = deviceKey(userId, deviceId);
        const otks = this.oneTime.get(key);
        let found = [...(otks?.entries() ?? [])].find(([id]) => id.startsWith(`${algorithm}:`));
        if (found) otks!.delete(found[0]);
        else found = [...(this.fallback.get(key)?.entries() ?? [])].find(([id]) => id.startsWith(`${algorithm}:`));
        if (found) (one_time_keys[userId] ??= {})[deviceId] = { [found[0]]: found[1] };
      }
    }
    sendJson(res, 200, { one_time_keys, failures: {} });
  }

  private sendToDevice(caller: Caller, type: string, body: Json, res: ServerResponse): void {
    for (const [userId, perDevice] of Object.entries((body.messages ?? {}) as Record<string, Json>)) {
      for (const [target, content] of Object.entries(perDevice)) {
        const targets = target === "*" ? [...(this.devices.get(userId)?.keys() ?? [])] : [target];
        for (const deviceId of targets) {
          this.toDeviceLog.push({ sender: caller.userId, type, userId, deviceId });
          this.hooks.deliver(userId, deviceId, { type, sender: caller.userId, content });
        }
      }
    }
    sendJson(res, 200, {});
  }
}
