/**
 * A failure of Lilo's Matrix end-to-end encryption (its store, a key
 * request, an event that cannot be encrypted), with what went wrong as `cause`.
 */
export class MatrixCryptoError extends Error {
  readonly code = "matrix-crypto";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MatrixCryptoError";
  }
}
