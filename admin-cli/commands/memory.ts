import { registerMemoryShow } from "./memory-show.ts";
import { InvalidArgumentError, type Command } from "commander";
import { ANY_USER } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseStore, parseId, parseListedStore, userOption, LISTED_STORES } from "./shared.ts";
import { registerImport } from "./import.ts";
import { localStamp } from "./local-time.ts";

/** A cosine similarity from -1 to 1; anything else is refused rather than silently ignored (NaN filters nothing). */
function parseScore(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < -1 || n > 1)
    throw new InvalidArgumentError(`--min-score must be a number from -1 to 1, not "${value}"`);
  return n;
}

/** `lilo memory …`: import, search, list, show, edit, delete. */
export function registerMemory(program: Command, open: LiloOpener, io: CliIO): void {
  const memory = program.command("memory").description("notes, important memories, thoughts and diary (rows and vectors together)");

  registerImport(memory, open, io);
  registerMemoryShow(memory, open, io);

  memory
    .command("search <query>")
    .description("search memories by words and meaning (the cheat sheet's hybrid search)")
    .option("-k, --k <n>", "how many results", "10")
    .option("--store <store>", "which store", "notes")
    .option("--min-score <score>", "leave out hits found by meaning alone below this cosine")
    .option(...userOption)
    .option("--json", "print JSON: [{ id, text, score (cosine), keyword (bm25), createdAt }]")
    .action((query: string, o: { k: string; store: string; minScore?: string; user?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const hits = await lilo.memory.search(query, {
          userId: o.user ?? lilo.config.terminal.userId,
          store: parseStore(o.store),
          k: parseId(o.k, "-k"),
          ...(o.minScore !== undefined ? { minScore: parseScore(o.minScore) } : {}),
        });
        if (o.json) io.out(JSON.stringify(hits.map(({ id, text, score, keyword, createdAt }) => ({ id, text, score, keyword: keyword ?? null, createdAt }))));
        else if (hits.length === 0) io.out("no matches");
        else
          for (const h of hits)
            io.out(
              `#${h.id}  cos ${h.score.toFixed(3)}  bm25 ${h.keyword === undefined ? "-" : keywordScore(h.keyword)}  ${localStamp(h.createdAt, lilo.config.timezone)}  ${h.text}`,
            );
        return 0;
      }),
    );

  memory
    .command("list")
    .description("newest memories of a store")
    .option("--store <store>", `which store (${LISTED_STORES.join(", ")})`, "notes")
    .option("-n, --limit <n>", "how many", "20")
    .option(...userOption)
    .option("--json", "print JSON: [{ id, text, createdAt }], with category for the profile")
    .action((o: { store: string; limit: string; user?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const store = parseListedStore(o.store);
        const userId = o.user ?? lilo.config.terminal.userId;
        const limit = parseId(o.limit, "--limit");
        const entries: { id: number; text: string; createdAt: string; category?: string }[] =
          store === "profile"
            ? newestFirst(lilo.profile.list(userId))
                .slice(0, limit)
                .map(({ id, text, createdAt, category }) => ({ id, text, createdAt, category }))
            : lilo.memory.list(userId, { store, limit }).map(({ id, text, createdAt }) => ({ id, text, createdAt }));
        if (o.json) io.out(JSON.stringify(entries));
        else for (const r of entries) io.out(`#${r.id}  ${localStamp(r.createdAt, lilo.config.timezone)}  ${r.category ? `${r.category}: ` : ""}${r.text}`);
        return 0;
      }),
    );

  memory
    .command("edit <id> <text>")
    .description("change a memory's text (re-embeds it)")
    .option("--store <store>", "which store", "notes")
    .action((id: string, text: string, o: { store: string }) =>
      withLilo(open, io, async (lilo) => {
        await lilo.memory.edit(ANY_USER, parseStore(o.store), parseId(id), text);
        io.out(`updated ${o.store} #${id}`);
        return 0;
      }),
    );

  memory
    .command("delete <id>")
    .description("delete a memory (row and vector)")
    .option("--store <store>", "which store", "notes")
    .action((id: string, o: { store: string }) =>
      withLilo(open, io, async (lilo) => {
        await lilo.memory.forget(ANY_USER, parseStore(o.store), parseId(id));
        io.out(`deleted ${o.store} #${id}`);
        return 0;
      }),
    );
}

/** Profile entries newest first, as the memory stores list theirs. */
function newestFirst<T extends { id: number; createdAt: string }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

/**
 * A bm25 score as computed, in two significant digits where two decimals would round it to "0.00": a word
 * found in nearly every one of the user's rows has almost no weight (its idf), yet it did match.
 */
function keywordScore(score: number): string {
  return score >= 0.01 ? score.toFixed(2) : score.toPrecision(2);
}
