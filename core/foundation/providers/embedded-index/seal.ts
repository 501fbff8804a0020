/**
 * Sealing of the vector snapshot and its log beside an encrypted database:
 * the int8 vectors are a close copy of what the user said, so they are kept
 * no less private than the database itself.
 *
 * AES-256-GCM rather than AES-256-CTR + HMAC: node:crypto does it in one
 * native pass with the tag built in, and each record (a chunk of a snapshot,
 * a batch of the log) is authenticated on its own, so a torn tail after a
 * crash, an altered byte or a wrong key is told apart record by record and
 * the index falls back to SQLite instead of loading wrong vectors. Every file
 * gets its own key (HKDF from the snapshot key and a random per-file salt), and
 * every record a random 96-bit nonce: the nonce space is never shared across
 * files, and a record rewritten after a torn append never reuses a nonce.
 */
import { createCipheriv, createDecipheriv, hkdfSync, pbkdf2Sync, randomBytes } from "node:crypto";
import type { DataKey } from "../../store/data-key.ts";
import { VectorIndexError } from "../../errors.ts";

/** The key the snapshot files are sealed with, derived from the data key (never the data key itself). */
export interface SnapshotKey {
  readonly bytes: Buffer;
}

const NONCE = 12;
const TAG = 16;
/** Bytes a sealed record adds to its plain text. */
export const SEAL_OVERHEAD = NONCE + TAG;
/** Bytes of a file's random salt. */
export const SALT_BYTES = 16;

const RAW_KEY = /^[0-9a-fA-F]{64}$/;

/**
 * The snapshot key of a data key. A raw 256-bit key (64 hex digits, what `lilo
 * setup` makes) goes through HKDF directly; a passphrase is first stretched
 * like SQLCipher stretches it (PBKDF2, 256,000 rounds), so the snapshot is no
 * cheaper to guess the passphrase from than the database.
 */
export function snapshotKeyOf(key: DataKey): SnapshotKey {
  const ikm = RAW_KEY.test(key.text) ? Buffer.from(key.text, "hex") : pbkdf2Sync(key.text, "lilo vector snapshot", 256_000, 32, "sha512");
  return { bytes: Buffer.from(hkdfSync("sha256", ikm, Buffer.alloc(0), "lilo vector snapshot v1", 32)) };
}

/**
 * The key graph files are sealed with (graph-files.ts): derived from the
 * snapshot key under a label of its own, so a graph and a snapshot never
 * share a key even where their per-file salts would coincide.
 */
export function graphKeyOf(key: SnapshotKey): SnapshotKey {
  return { bytes: Buffer.from(hkdfSync("sha256", key.bytes, Buffer.alloc(0), "lilo vector graph v1", 32)) };
}

/** One file's sealing: its own key from the snapshot key and the file's salt. */
export class FileSeal {
  private readonly key: Buffer;

  private constructor(
    snapshotKey: SnapshotKey,
    readonly salt: Buffer,
  ) {
    this.key = Buffer.from(hkdfSync("sha256", snapshotKey.bytes, salt, "lilo vector file", 32));
  }

  /** A new file's seal with a random salt (written at the file's start). */
  static create(key: SnapshotKey): FileSeal {
    return new FileSeal(key, randomBytes(SALT_BYTES));
  }

  /** The seal of a file whose salt is `salt`. */
  static of(key: SnapshotKey, salt: Buffer): FileSeal {
    return new FileSeal(key, Buffer.from(salt));
  }

  /** Encrypts `plain`: nonce, cipher text, tag; `aad` is authenticated with it (where the record belongs). */
  seal(plain: Buffer, aad: Buffer): Buffer {
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    cipher.setAAD(aad);
    const body = cipher.update(plain);
    const end = cipher.final(); // empty for GCM
    return Buffer.concat([nonce, body, end, cipher.getAuthTag()]);
  }

  /** Decrypts a sealed record; throws a VectorIndexError when the key is another or a byte was changed. */
  open(sealed: Buffer, aad: Buffer): Buffer {
    if (sealed.length < SEAL_OVERHEAD) throw new VectorIndexError("A sealed vector record is shorter than its nonce and tag");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, sealed.subarray(0, NONCE));
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
      // No concat: GCM's final() adds no bytes, and a copy of every record would cost start-up (docs/benchmarks.md).
      const plain = decipher.update(sealed.subarray(NONCE, sealed.length - TAG));
      const end = decipher.final();
      return end.length === 0 ? plain : Buffer.concat([plain, end]);
    } catch (err) {
      throw new VectorIndexError("A sealed vector record does not open with the data key (another key, or the file was altered)", { cause: err });
    }
  }
}
