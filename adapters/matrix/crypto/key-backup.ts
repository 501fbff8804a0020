import { existsSync, readdirSync } from "node:fs";
import { join, parse } from "node:path";
import type { Lilo } from "../../../core/index.ts";
import { keyStoreName } from "./crypto-machine.ts";
import { dropDatabase } from "./idb.ts";
import { IdbTable } from "./idb-table.ts";
import { restoreLegacyFile } from "./legacy-store-file.ts";

const PREFIX = keyStoreName("");
const DB_NAME = /^lilo-matrix-crypto-(.+)::matrix-sdk-crypto$/;

/** The Matrix devices whose key stores are in the database (and so in every `lilo backup` of it). */
export function matrixKeyDevices(keys: Lilo["deviceKeys"]): string[] {
  return keys
    .names()
    .filter((n) => n.startsWith(PREFIX) && !n.includes(".damaged-"))
    .map((n) => n.slice(PREFIX.length));
}

/** The devices of key-store names (`matrix/<device>`), for what `lilo restore` says it kept or put back. */
export const matrixDevicesOf = (storeNames: string[]): string[] => storeNames.filter((n) => n.startsWith(PREFIX)).map((n) => n.slice(PREFIX.length));

/**
 * `lilo restore --apply` of a backup made by an earlier version, which kept
 * the key store files beside it (`<backup>.matrix-crypto/<device>.store`):
 * puts the keys of each device that has no store in the database now into
 * the database (the files stay with the backup). A store that exists is
 * kept: older keys would replay ratchet states the other devices have moved
 * past. Returns the devices put back.
 */
export async function restoreLegacyMatrixKeys(keys: Lilo["deviceKeys"], dbBackup: string): Promise<string[]> {
  const { dir, name } = parse(dbBackup);
  const from = join(dir, `${name}.matrix-crypto`);
  if (!existsSync(from)) return [];
  const restored: string[] = [];
  for (const f of readdirSync(from).filter((n) => n.endsWith(".store"))) {
    const dbName = await restoreLegacyFile(join(from, f));
    const deviceId = DB_NAME.exec(dbName)?.[1];
    try {
      if (!deviceId || keys.load(keyStoreName(deviceId))) continue;
      await new IdbTable(dbName, keyStoreName(deviceId), keys).save();
      restored.push(deviceId);
    } finally {
      await dropDatabase(dbName);
    }
  }
  return restored;
}
