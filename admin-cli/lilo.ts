import { buildProgram } from "./program.ts";
import { openFromEnv, processIO } from "./context.ts";

// A reader that stopped early (`lilo memory list | head -1`) closed the pipe: that is the reader's wish, not
// an error. End quietly with 0, as git and gh do, instead of an unhandled EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
}

await buildProgram(openFromEnv(), processIO).parseAsync(process.argv);
