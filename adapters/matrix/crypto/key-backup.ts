import { cpSync, existsSync, readdirSync } from "node:fs";
import { join, parse } from "node:path";
import { ensurePrivateDir, makePrivate } from "../../../core/internal.ts";
import { cryptoDir } from "./crypto-dir.ts";

/** Where the key stores of a database backup go: next to it, `<backup>.matrix-crypto/`. */
const keysBeside = (dbBackup: string): string => {
  const { dir, name } = parse(dbBackup);
  return join(dir, `${name}.matrix-crypto`);
};

/**
 * `lilo backup`: copies the Matrix device key stores next to the database
 * backup (0700/0600). Each store file is replaced atomically when written,
 * so a copy taken while the bot runs is one whole version of it. Returns the
 * folder, or undefined when there are no keys.
 */
export function backupMatrixKeys(dataDir: string, dbBackup: string): string | undefined {
  const from = cryptoDir(dataDir);
  const stores = existsSync(from) ? readdirSync(from).filter((f) => f.endsWith(".store")) : [];
  if (!stores.length) return undefined;
  const to = keysBeside(dbBackup);
  ensurePrivateDir(to);
  for (const f of stores) {
    cpSync(join(from, f), join(to, f));
    makePrivate(join(to, f));
  }
  return to;
}

/**
 * `lilo restore --apply`: puts back the key store of each device that has
 * none now (lost). A store that exists is kept: older keys would replay
 * ratchet states the other devices have moved past. Returns the devices'
 * store files that were put back.
 */
export function restoreMatrixKeys(dataDir: string, dbBackup: string): string[] {
  const from = keysBeside(dbBackup);
  if (!existsSync(from)) return [];
  const to = cryptoDir(dataDir);
  ensurePrivateDir(to);
  const restored: string[] = [];
  for (const f of readdirSync(from).filter((name) => name.endsWith(".store"))) {
    if (existsSync(join(to, f))) continue;
    cpSync(join(from, f), join(to, f));
    makePrivate(join(to, f));
    restored.push(f);
  }
  return restored;
}
