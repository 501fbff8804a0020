import { liloInternals, type LiloInternals } from "../../core/lilo.ts";
import type { Lilo } from "../../core/index.ts";

/**
 * The database and stores behind a Lilo, for tests that set up rows with
 * chosen times or inspect state no use case shows (superseded rows, raw
 * SQLite). Adapters, jobs and the CLI never reach these
 * (test/architecture/boundaries.test.ts).
 */
export function inside(lilo: Lilo): LiloInternals {
  return liloInternals(lilo);
}
