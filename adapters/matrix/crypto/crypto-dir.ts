import { join } from "node:path";

/** The folder the Matrix key stores live in: `<dataDir>/matrix-crypto/` (0700), one `<device>.store` (0600) per device. */
export const cryptoDir = (dataDir: string): string => join(dataDir, "matrix-crypto");
