import { runApp } from "../../app.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";

/**
 * The real bot process (app.ts, the composition of `npm start`) with the
 * offline hash embedder, for the crash tests; BOT_ENTRY_HASH_DIM sets its
 * dimension (default 64), so a benchmark's install made with another opens.
 */
runApp({ embedder: new HashEmbedder(Number(process.env.BOT_ENTRY_HASH_DIM ?? 64)) }).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bot entry failed: ${String(err)}\n`);
    process.exit(1);
  },
);
