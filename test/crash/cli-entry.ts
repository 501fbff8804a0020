import { buildProgram } from "../../admin-cli/program.ts";
import { openFromEnv, processIO } from "../../admin-cli/context.ts";
import { HashEmbedder } from "../../core/foundation/providers/hash-embedder.ts";

/** The real `lilo` CLI with the offline hash embedder, for the crash and concurrency tests. */
await buildProgram(openFromEnv({ embedder: new HashEmbedder(64) }), processIO).parseAsync(process.argv);
