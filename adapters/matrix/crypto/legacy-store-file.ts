import { existsSync, readFileSync } from "node:fs";
import { deserialize } from "node:v8";
import { MatrixCryptoError } from "./crypto-error.ts";
import { createDatabase, type Key, type StoreLayout } from "./idb.ts";

/**
 * The store file earlier Lilo versions kept a device's keys in
 * (`data/matrix-crypto/<DEVICE>.store`): one whole IndexedDB database,
 * structured-clone encoded (`node:v8`). It is read once, to move the keys
 * into the database (store-migration.ts), and never written.
 */
interface LegacyDatabase {
  format: 1;
  name: string;
  version: number;
  objectStores: (StoreLayout & { keys: Key[]; values: unknown[] })[];
}

/** The IndexedDB database name inside a legacy store file (which device's keys it holds); throws for a file that is not one. */
export function legacyDatabaseName(file: string): string {
  return readLegacy(file).name;
}

/**
 * Recreates the IndexedDB database a legacy store file holds (replacing any
 * in-process copy) and returns its name. A damaged file throws a LiloError.
 */
export async function restoreLegacyFile(file: string): Promise<string> {
  const saved = readLegacy(file);
  await createDatabase(
    saved.name,
    saved.version,
    saved.objectStores.map((s) => ({ ...s, records: s.values.map((value, i) => ({ key: s.keys[i]!, value })) })),
  );
  return saved.name;
}

function readLegacy(file: string): LegacyDatabase {
  if (!existsSync(file)) throw new MatrixCryptoError(`the Matrix crypto store ${file} does not exist`);
  let saved: LegacyDatabase;
  try {
    saved = deserialize(readFileSync(file)) as LegacyDatabase;
  } catch (err) {
    throw new MatrixCryptoError(`the Matrix crypto store ${file} cannot be read`, { cause: err });
  }
  if (saved?.format !== 1 || typeof saved.name !== "string" || !Array.isArray(saved.objectStores)) {
    throw new MatrixCryptoError(`${file} is not a Matrix crypto store`);
  }
  return saved;
}
