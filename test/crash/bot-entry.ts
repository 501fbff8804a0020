import { runApp } from "../../app.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";

/** The real bot process (app.ts, the composition of `npm start`) with the offline hash embedder, for the crash tests. */
runApp({ embedder: new HashEmbedder(64) }).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bot entry failed: ${String(err)}\n`);
    process.exit(1);
  },
);
