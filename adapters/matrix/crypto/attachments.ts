import { Attachment, EncryptedAttachment } from "@matrix-org/matrix-sdk-crypto-wasm";
import { MatrixCryptoError } from "./crypto-error.ts";

/** The `file` of an encrypted attachment (spec: EncryptedFile): where it is and the key to open it. */
export interface EncryptedFile {
  url: string;
  key: Record<string, unknown>;
  iv: string;
  hashes: Record<string, string>;
  v: string;
}

/** The `file` field of a media message when it is an encrypted attachment; undefined otherwise. */
export function encryptedFile(content: Record<string, unknown>): EncryptedFile | undefined {
  const file = content.file as Partial<EncryptedFile> | undefined;
  return file && typeof file.url === "string" && typeof file.iv === "string" && file.key && file.hashes ? (file as EncryptedFile) : undefined;
}

/**
 * Opens an encrypted attachment (AES-CTR with the message's key, after
 * checking its SHA-256 hash) with the Matrix Rust crypto; a wrong key or
 * hash is an error. The crypto must be loaded (MatrixCrypto.open does that).
 */
export function decryptAttachment(file: EncryptedFile, data: Uint8Array): Buffer {
  const { key, iv, hashes, v } = file;
  try {
    return Buffer.from(Attachment.decrypt(new EncryptedAttachment(data, JSON.stringify({ v, key, iv, hashes }))));
  } catch (err) {
    throw new MatrixCryptoError("the encrypted attachment cannot be opened (wrong key or damaged file)", { cause: err });
  }
}

/**
 * Encrypts a file for an encrypted room (AES-CTR with a fresh key, SHA-256
 * of the result): the bytes to upload, and the `file` of the message
 * without its `url` (known once uploaded).
 */
export function encryptAttachment(data: Uint8Array): { data: Uint8Array; file: Omit<EncryptedFile, "url"> } {
  try {
    const encrypted = Attachment.encrypt(new Uint8Array(data));
    const info = JSON.parse(encrypted.mediaEncryptionInfo ?? "{}") as Omit<EncryptedFile, "url">;
    return { data: encrypted.encryptedData, file: { v: info.v, key: info.key, iv: info.iv, hashes: info.hashes } };
  } catch (err) {
    throw new MatrixCryptoError("the attachment could not be encrypted", { cause: err });
  }
}
