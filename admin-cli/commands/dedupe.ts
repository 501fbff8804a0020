import { InvalidArgumentError, type Command } from "commander";
import { ANY_USER } from "../../core/index.ts";
import { DEDUPE_STORES, type DedupeStore } from "../../core/internal.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { localStamp } from "./local-time.ts";
import { withLilo } from "./shared.ts";

function parseDedupeStore(value: string): DedupeStore {
  if (value === "diary") throw new InvalidArgumentError("the diary is never deduplicated: each entry is its own night, even if two read alike");
  if ((DEDUPE_STORES as readonly string[]).includes(value)) return value as DedupeStore;
  throw new InvalidArgumentError(`unknown store "${value}" (use ${DEDUPE_STORES.join(", ")})`);
}

/** `lilo dedupe`: exact-duplicate removal, dry run first, the oldest of each group stays. */
export function registerDedupe(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("dedupe")
    .description("find exact duplicates (same user, store, text after trim); --apply keeps the oldest and deletes the rest")
    .option("--store <store>", `only this store (${DEDUPE_STORES.join(", ")}; never the diary)`, parseDedupeStore)
    .option("-u, --user <id>", "only this user (default: every user)")
    .option("--apply", "delete the duplicates, row and vector (a backup is made first)")
    .action((o: { store?: DedupeStore; user?: string; apply?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const stores = o.store ? [o.store] : [...DEDUPE_STORES];
        const groups = stores.flatMap((s) => lilo.memory.duplicates(s, o.user));
        const extra = groups.reduce((n, g) => n + g.remove.length, 0);
        const local = (iso: string) => localStamp(iso, lilo.config.timezone);
        for (const g of groups) {
          io.out(`${g.store}  user ${g.userId}  "${g.text.slice(0, 80)}"`);
          io.out(`  keep #${g.keep.id} (${local(g.keep.createdAt)})  delete ${g.remove.map((r) => `#${r.id} (${local(r.createdAt)})`).join(", ")}`);
        }
        io.out(`${groups.length} groups, ${extra} duplicates in ${stores.join(", ")}`);
        if (extra === 0) return 0;
        if (!o.apply) {
          io.out("dry run: nothing changed. Run `lilo dedupe --apply` to delete the duplicates (the oldest of each group stays).");
          return 0;
        }
        io.out(`backup: ${await lilo.backup.create()}`);
        for (const g of groups) for (const r of g.remove) await lilo.memory.forget(ANY_USER, g.store, r.id);
        io.out(`deleted ${extra} duplicates (rows and vectors)`);
        return 0;
      }),
    );
}
