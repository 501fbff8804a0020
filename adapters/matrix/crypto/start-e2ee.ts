import { existsSync, renameSync } from "node:fs";
import type { IStorageProvider, MatrixClient } from "matrix-bot-sdk";
import { describeError, type Lilo, type Logger } from "../../../core/index.ts";
import { keyStoreName, MatrixCrypto } from "./crypto-machine.ts";
import { legacyStoreFile, removeLegacyFile } from "./crypto-dir.ts";
import { MatrixE2ee, type E2eeParts } from "./e2ee.ts";
import { EncryptedRooms } from "./encrypted-rooms.ts";

/** What happened to Lilo's device at this start, for the users to hear: a new device, or keys lost for the current one. */
export type DeviceNews = { kind: "new-device" | "lost-store"; deviceId: string; fingerprint: string };

export interface E2eeStart {
  e2ee: MatrixE2ee;
  news: DeviceNews | undefined;
}

/** Device id → ed25519 key of every device Lilo has had keys for; tells a lost store from a first start. */
const DEVICES_KEY = "lilo.matrix.crypto.devices";

/**
 * Sets up Lilo's Matrix device: the access token's device (whoami) with
 * the keys of its store in Lilo's database, or new keys when there is none.
 * A store file of an earlier version is moved into the database once and
 * then removed. A store that cannot be read is set aside (`.damaged-…`,
 * kept) and replaced, never a crash;
 * a device that had keys before and has none now is reported as a lost
 * store, another device than before as a new device. Returns undefined
 * when the server names no device (no encryption then).
 */
export async function startE2ee(
  client: MatrixClient,
  options: { dataDir: string; keys: Lilo["deviceKeys"]; storage: IStorageProvider; logger: Logger } & Pick<E2eeParts, "wanted" | "members" | "now" | "gaveUp">,
): Promise<E2eeStart | undefined> {
  const { dataDir, keys, storage, logger } = options;
  const whoami = await client.getWhoAmI();
  if (!whoami.device_id) {
    logger.warn("matrix: the access token names no device; encrypted rooms cannot be read");
    return undefined;
  }
  const deviceId = whoami.device_id;
  const legacyFile = legacyStoreFile(dataDir, deviceId);
  const open = () =>
    MatrixCrypto.open({ userId: whoami.user_id, deviceId, keys, legacyFile, logger, http: (method, path, body) => client.doRequest(method, path, null, body) });
  let crypto: MatrixCrypto;
  try {
    crypto = await open();
  } catch (err) {
    if (keys.load(keyStoreName(deviceId))) {
      const aside = keys.setAside(keyStoreName(deviceId));
      logger.error("matrix crypto store unreadable; set aside in the database, new keys made", { store: aside, error: describeError(err) });
    } else if (existsSync(legacyFile)) {
      const aside = `${legacyFile}.damaged-${Date.now()}`;
      logger.error("matrix crypto store file unreadable; moved aside, new keys made", { file: aside, error: describeError(err) });
      renameSync(legacyFile, aside);
    } else throw err;
    crypto = await open();
  }
  // The keys are in the database now: a store file left from an earlier version is a plain copy of them.
  if (crypto.origin === "legacy-file") logger.info("matrix crypto store moved into the database; the store file is removed", { deviceId });
  removeLegacyFile(legacyFile);
  const known = JSON.parse((await Promise.resolve(storage.readValue(DEVICES_KEY))) ?? "{}") as Record<string, string>;
  const fingerprint = crypto.keys.ed25519;
  let news: DeviceNews | undefined;
  if (crypto.created && known[deviceId]) news = { kind: "lost-store", deviceId, fingerprint };
  else if (crypto.created && Object.keys(known).length) news = { kind: "new-device", deviceId, fingerprint };
  if (known[deviceId] !== fingerprint) await Promise.resolve(storage.storeValue(DEVICES_KEY, JSON.stringify({ ...known, [deviceId]: fingerprint })));
  if (news?.kind === "lost-store")
    logger.error("matrix: the crypto store of this device was lost; encrypted rooms need a new device (a new access token)", { deviceId });
  else logger.info("matrix end-to-end encryption ready", { deviceId, fingerprint, newKeys: crypto.created });
  const rooms = new EncryptedRooms((roomId) => client.getRoomStateEvent(roomId, "m.room.encryption", ""));
  const e2ee = await MatrixE2ee.create({ ...options, crypto, rooms });
  return { e2ee, news };
}
