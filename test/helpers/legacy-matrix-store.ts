import { writeFileSync } from "node:fs";
import { deserialize, serialize } from "node:v8";
import type { Lilo } from "../../core/index.ts";

/**
 * Writes a device's key store the way earlier Lilo versions kept it: one
 * file per device (`data/matrix-crypto/<DEVICE>.store`), the whole IndexedDB
 * database structured-clone encoded. Built from the store as the database
 * holds it now, so an install of an earlier version can be stood up.
 */
export function writeLegacyMatrixStore(keys: Lilo["deviceKeys"], deviceId: string, file: string): void {
  const copy = keys.load(`matrix/${deviceId}`);
  if (!copy) throw new Error(`no key store of ${deviceId}`);
  const layout = JSON.parse(copy.layout) as {
    version: number;
    objectStores: { name: string; keyPath: string | string[] | null; autoIncrement: boolean; indexes: unknown[] }[];
  };
  const objectStores = layout.objectStores.map((s) => {
    const records = copy.records.filter((r) => r.objectStore === s.name);
    return { ...s, keys: records.map((r) => deserialize(r.key) as unknown), values: records.map((r) => deserialize(r.value) as unknown) };
  });
  const name = `lilo-matrix-crypto-${deviceId}::matrix-sdk-crypto`;
  writeFileSync(file, serialize({ format: 1, name, version: layout.version, objectStores }), { mode: 0o600 });
}
