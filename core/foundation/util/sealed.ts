import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { ConfigError } from "../errors.ts";

/**
 * Files Lilo writes outside SQLite under the data key (an export): AES-256-GCM
 * with a key derived from the data key by scrypt with a salt of the file's
 * own. Layout: MAGIC (8 bytes), salt (16), nonce (12), tag (16), ciphertext.
 * The tag makes a wrong key or a changed byte an error, never wrong text.
 */
const MAGIC = Buffer.from("LILOSEAL", "latin1");
const HEAD = MAGIC.length + 16 + 12 + 16;

const derive = (keyText: string, salt: Buffer) => scryptSync(keyText, salt, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });

/** Is this file's content sealed (as opposed to plain text)? */
export function isSealed(bytes: Buffer): boolean {
  return bytes.length >= HEAD && bytes.subarray(0, MAGIC.length).equals(MAGIC);
}

/** Seals `text` with the key's text. */
export function seal(text: string, keyText: string): Buffer {
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derive(keyText, salt), nonce);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([MAGIC, salt, nonce, cipher.getAuthTag(), body]);
}

/** The text of a sealed file; a ConfigError naming LILO_DATA_KEY when the key does not open it. */
export function unseal(bytes: Buffer, keyText: string | undefined, what: string): string {
  if (keyText === undefined) throw new ConfigError(`${what} is encrypted: set LILO_DATA_KEY (or LILO_DATA_KEY_FILE) to the key it was written with`);
  let at = MAGIC.length;
  const take = (n: number) => bytes.subarray(at, (at += n));
  const salt = take(16);
  const nonce = take(12);
  const tag = take(16);
  const decipher = createDecipheriv("aes-256-gcm", derive(keyText, salt), nonce);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(bytes.subarray(HEAD)), decipher.final()]).toString("utf8");
  } catch (err) {
    throw new ConfigError(`LILO_DATA_KEY does not open ${what}: it was written with another key, or it is damaged`, { cause: err });
  }
}
