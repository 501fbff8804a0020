/**
 * Child process of the `lilo encrypt` kill test: converts the install in
 * `dir` (argv[2]) to the key in LILO_DATA_KEY through the same code as the
 * command, and SIGKILLs itself as the step `phase` (argv[3]) of the file
 * whose name ends with argv[4] begins.
 */
import { convertInstall } from "../../core/api/convert-install.ts";
import { systemClock } from "../../core/foundation/ports/clock.ts";

const [dir, phase, fileEnd] = process.argv.slice(2) as [string, string, string];
// The few settings a conversion reads, without the whole configuration: the child starts fast.
const config = { dbPath: `${dir}/lilo.db`, dataDir: dir, analysis: { dir: `${dir}/analyses` }, dataKey: process.env.LILO_DATA_KEY };
convertInstall(
  config,
  { kind: "encrypt" },
  {
    apply: true,
    clock: systemClock,
    onPhase: (file, p) => {
      if (p === phase && file.endsWith(fileEnd)) process.kill(process.pid, "SIGKILL");
    },
  },
);
process.stderr.write(`never reached ${phase} of ${fileEnd}\n`);
process.exitCode = 2;
