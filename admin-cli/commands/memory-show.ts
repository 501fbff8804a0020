import type { Command } from "commander";
import { ANY_USER } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { localStamp } from "./local-time.ts";
import { withLilo, parseId, parseStore } from "./shared.ts";

/** `lilo memory show <id>`: one entry with its store fields, where it came from (provenance) and whom it is about. */
export function registerMemoryShow(memory: Command, open: LiloOpener, io: CliIO): void {
  memory
    .command("show <id>")
    .description("one entry with where it came from (the user's words, Lilo's inference, a lookup, an import, the operator)")
    .option("--store <store>", "which store", "notes")
    .option("--json", "print JSON: { id, store, userId, text, createdAt, updatedAt, extra }")
    .action((id: string, o: { store: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const store = parseStore(o.store);
        const e = lilo.memory.get(ANY_USER, store, parseId(id));
        if (!e) {
          io.err(`error: no ${store} entry with id ${id}`);
          return 1;
        }
        if (o.json) return (io.out(JSON.stringify(e)), 0);
        const x = e.extra;
        const from =
          typeof x.provenance === "string"
            ? `${x.provenance}${x.provenance_ref ? ` ${String(x.provenance_ref)}` : ""}`
            : "unknown (stored before provenance was recorded)";
        io.out(`${store} #${e.id} (${e.userId}, ${localStamp(e.createdAt, lilo.config.timezone)})`);
        io.out(`text:  ${e.text}`);
        io.out(`from:  ${from}`);
        if (typeof x.subject === "string") io.out(`about: ${x.subject}`);
        return 0;
      }),
    );
}
