import { buildProgram } from "./program.ts";
import { openFromEnv, processIO } from "./context.ts";

await buildProgram(openFromEnv(), processIO).parseAsync(process.argv);
