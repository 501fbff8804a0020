import { InvalidArgumentError, type Command } from "commander";
import type { Lilo, VectorStore } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { backupDatabase } from "../context.ts";
import { withLilo } from "./shared.ts";

/** The diary is never deduplicated (SPEC §11): two nights may well read alike, and each is a day of its own. */
const DEDUPE_STORES = ["notes", "important", "thoughts"] as const satisfies readonly VectorStore[];
type DedupeStore = (typeof DEDUPE_STORES)[number];

/** One set of rows with the same user, store and trimmed text: the oldest stays. */
interface DuplicateGroup {
  store: DedupeStore;
  userId: string;
  text: string;
  keep: { id: number; createdAt: string };
  remove: { id: number; createdAt: string }[];
}

function parseDedupeStore(value: string): DedupeStore {
  if (value === "diary") throw new InvalidArgumentError("the diary is never deduplicated: each entry is its own night, even if two read alike");
  if ((DEDUPE_STORES as readonly string[]).includes(value)) return value as DedupeStore;
  throw new InvalidArgumentError(`unknown store "${value}" (use ${DEDUPE_STORES.join(", ")})`);
}

/** Exact duplicates only (identical after trim); never by similarity. Oldest first, so index 0 is kept. */
export function findDuplicates(lilo: Lilo, store: DedupeStore, userId: string | undefined): DuplicateGroup[] {
  const byKey = new Map<string, { id: number; createdAt: string; userId: string; text: string }[]>();
  for (const page of lilo.stores.memory.rows[store].iterateLive()) {
    for (const r of page) {
      if (userId !== undefined && r.userId !== userId) continue;
      const key = JSON.stringify([r.userId, r.text.trim()]);
      const list = byKey.get(key) ?? [];
      list.push({ id: r.id, createdAt: r.createdAt, userId: r.userId, text: r.text.trim() });
      byKey.set(key, list);
    }
  }
  const groups: DuplicateGroup[] = [];
  for (const rows of byKey.values()) {
    if (rows.length < 2) continue;
    rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
    const [keep, ...remove] = rows.map(({ id, createdAt }) => ({ id, createdAt }));
    groups.push({ store, userId: rows[0]!.userId, text: rows[0]!.text, keep: keep!, remove });
  }
  return groups;
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
        const groups = stores.flatMap((s) => findDuplicates(lilo, s, o.user));
        const extra = groups.reduce((n, g) => n + g.remove.length, 0);
        for (const g of groups) {
          io.out(`${g.store}  user ${g.userId}  "${g.text.slice(0, 80)}"`);
          io.out(`  keep #${g.keep.id} (${g.keep.createdAt})  delete ${g.remove.map((r) => `#${r.id} (${r.createdAt})`).join(", ")}`);
        }
        io.out(`${groups.length} groups, ${extra} duplicates in ${stores.join(", ")}`);
        if (extra === 0) return 0;
        if (!o.apply) {
          io.out("dry run: nothing changed. Run `lilo dedupe --apply` to delete the duplicates (the oldest of each group stays).");
          return 0;
        }
        io.out(`backup: ${await backupDatabase(lilo)}`);
        for (const g of groups) for (const r of g.remove) await lilo.memory.forget(g.store, r.id);
        io.out(`deleted ${extra} duplicates (rows and vectors)`);
        return 0;
      }),
    );
}
