import type { Command } from "commander";
import type { ReflectionResult, ThoughtEntry } from "../../core/index.ts";
import { ANY_USER } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, userOption } from "./shared.ts";
import { localStamp, oneLine } from "./diary.ts";

/** Why a reflection stored no thought, in words. */
const REASONS: Record<NonNullable<ReflectionResult["reason"]>, string> = {
  "no-conversation": "no conversation yet",
  "no-new-chats": "no chats since the last reflection",
  "empty-answer": "the model's answer was empty",
  duplicate: "the thought was too close to one already stored",
  failed: "the reflection call failed",
};

/** `lilo thoughts …`: list, show, delete (row and vector), think now. */
export function registerThoughts(program: Command, open: LiloOpener, io: CliIO): void {
  const thoughts = program.command("thoughts").description("Lilo's thoughts (reflection and [THOUGHT:]): list, show, delete, think now");

  thoughts
    .command("list")
    .description("newest thoughts first")
    .option(...userOption)
    .option("-n, --limit <n>", "how many", "20")
    .option("--json", "print JSON: [{ id, origin, parts, text, createdAt }]")
    .action((o: { user?: string; limit: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const list = lilo.reflection.list(o.user ?? lilo.config.terminal.userId, parseId(o.limit, "--limit"));
        if (o.json) io.out(JSON.stringify(list));
        else if (list.length === 0) io.out("no thoughts");
        else for (const t of list) io.out(`#${t.id}  ${localStamp(t.createdAt, lilo.config.timezone)}  ${t.origin.padEnd(10)}  ${oneLine(t.text, 100)}`);
        return 0;
      }),
    );

  thoughts
    .command("show <id>")
    .description("one thought, with the questions above the answers")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        const row = lilo.memory.get(ANY_USER, "thoughts", parseId(id));
        if (!row) {
          io.err(`error: no thought #${id}`);
          return 1;
        }
        const entry = lilo.reflection.list(row.userId, 1_000).find((t) => t.id === row.id);
        io.out(entry ? render(entry, lilo.config.timezone) : row.text);
        return 0;
      }),
    );

  thoughts
    .command("delete <id>")
    .description("delete a thought (row and vector), e.g. a wrong assumption")
    .action((id: string) =>
      withLilo(open, io, async (lilo) => {
        await lilo.memory.forget(ANY_USER, "thoughts", parseId(id));
        io.out(`deleted thought #${id}`);
        return 0;
      }),
    );

  thoughts
    .command("think")
    .description("think now (even without new chats)")
    .option(...userOption)
    .action((o: { user?: string }) =>
      withLilo(open, io, async (lilo) => {
        const userId = o.user ?? lilo.config.terminal.userId;
        const r = await lilo.reflection.thinkNow(userId);
        if (r.released) io.out(`a queued concern is now open: #${r.released.topicId} ${r.released.text}`);
        const stored = r.thought && lilo.reflection.list(userId, 1).find((x) => x.id === r.thought!.id);
        if (stored) io.out(`stored thought ${render(stored, lilo.config.timezone)}`);
        if (r.concern) io.out(`\nconcern: ${r.concern.status}${r.concern.topicId ? ` (topic #${r.concern.topicId}${r.concern.push ? `, push: ${r.concern.push}` : ""})` : ""}: ${r.concern.text}`);
        if (r.reason === "failed") {
          io.err(`error: ${REASONS.failed}: ${r.error ?? "unknown error"}`);
          return 1;
        }
        if (r.reason) io.out(`no new thought: ${REASONS[r.reason]}`);
        return 0;
      }),
    );
}

function render(t: ThoughtEntry, timeZone: string): string {
  const head = `#${t.id}  ${localStamp(t.createdAt, timeZone)}  ${t.origin}\n\n`;
  return head + t.parts.map((p) => (p.question ? `** ${p.question}\n${p.answer}` : p.answer)).join("\n\n");
}
