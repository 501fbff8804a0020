/**
 * A process whose only work is a Lilo with background checkpoints that
 * writes and closes (test/foundation/store/background-checkpoints.test.ts):
 * it must print "closed" — a worker that let the process end while `close`
 * waited for it would end the process before that line.
 */
import { createLilo, loadConfig } from "../../core/index.ts";
import { ControlledEmbedder } from "../fakes/controlled-embedder.ts";

const lilo = createLilo(loadConfig({ LILO_DATA_DIR: process.argv[2]! }), { embedder: new ControlledEmbedder(16), backgroundCheckpoints: true });
await lilo.memory.add({ userId: "u", text: "Mag Tee am Abend" });
await lilo.close();
process.stdout.write("closed\n");
