import { existsSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * The folder earlier Lilo versions kept the Matrix key stores in:
 * `<dataDir>/matrix-crypto/`, one `<device>.store` per device. The keys live
 * in Lilo's database now; a store file found there is moved in once and removed.
 */
export const cryptoDir = (dataDir: string): string => join(dataDir, "matrix-crypto");

/** The store file an earlier version kept a device's keys in. */
export const legacyStoreFile = (dataDir: string, deviceId: string): string => join(cryptoDir(dataDir), `${deviceId.replace(/[^A-Za-z0-9_-]/g, "_")}.store`);

/** Removes a legacy store file (and its half-written `.tmp`), and the folder once nothing else is in it. */
export function removeLegacyFile(file: string): void {
  rmSync(file, { force: true });
  rmSync(`${file}.tmp`, { force: true });
  const dir = join(file, "..");
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
}
