import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { localStamp } from "./local-time.ts";
import { withLilo, parseId, userOption } from "./shared.ts";

/**
 * `lilo why <answer id>` and `lilo forget --text "…"`: what an
 * answer's cheat sheet held, with where each memory came from; and forget
 * everywhere, a dry run unless `--apply`.
 */
export function registerForget(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("why <answerId>")
    .description("what the cheat sheet of one answer held: memories, passages and rules, with where each came from")
    .option("--json", "print JSON: { answerId, userId, createdAt, items: [{ ref, store, id, text, createdAt, provenance, subject }] }")
    .action((answerId: string, o: { json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const view = lilo.why.forAnswer(parseId(answerId, "answer id"));
        if (!view) {
          io.err(`error: no receipt for answer ${answerId} (an answer stored before receipts existed, or not an answer)`);
          return 1;
        }
        if (o.json) io.out(JSON.stringify(view));
        else if (!view.items.length) io.out(`answer ${view.answerId} (${view.userId}): no memories on its sheet`);
        else {
          io.out(`answer ${view.answerId} (${view.userId}, ${localStamp(view.createdAt, lilo.config.timezone)}):`);
          for (const i of view.items) {
            const from = i.provenance ? `${i.provenance.kind}${i.provenance.ref ? ` ${i.provenance.ref}` : ""}` : "unknown";
            io.out(`${i.ref.padEnd(7)} ${i.store.padEnd(9)} [from: ${from}${i.subject ? `; about: ${i.subject}` : ""}] ${i.text.replace(/\s+/g, " ")}`);
          }
        }
        return 0;
      }),
    );

  program
    .command("forget")
    .description(
      "forget everywhere: find what holds the words (notes, important, profile, thoughts, diary, topics, summaries, chat messages); a dry run unless --apply",
    )
    .requiredOption("--text <words>", "the words (or a sentence) to forget")
    .option(...userOption)
    .option("--apply", "forget what was found: rows, vectors, keyword index, message vectors; chat messages are redacted in place")
    .option("--json", "print JSON: { plan, outcome? }")
    .action((o: { text: string; user?: string; apply?: boolean; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        if (!o.text.trim()) {
          io.err("error: --text needs the words to forget");
          return 1;
        }
        const plan = await lilo.forget.find(o.user ?? lilo.config.terminal.userId, o.text);
        const outcome = o.apply && plan.items.length ? await lilo.forget.apply(plan) : undefined;
        if (o.json) io.out(JSON.stringify({ plan, ...(outcome ? { outcome } : {}) }));
        else if (!plan.items.length) io.out("nothing found");
        else {
          for (const i of plan.items)
            io.out(`${i.kind.padEnd(11)} #${String(i.id).padEnd(6)} ${i.action.padEnd(7)} (${i.match}) ${i.text.replace(/\s+/g, " ").slice(0, 160)}`);
          io.out(
            outcome
              ? `forgotten: ${outcome.removed} removed, ${outcome.rewritten} rewritten, ${outcome.redacted} messages redacted, ${outcome.scrubbed} log rows scrubbed`
              : `dry run: ${plan.items.length} found; run again with --apply to forget them`,
          );
        }
        return 0;
      }),
    );
}
