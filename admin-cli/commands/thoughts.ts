import type { Command } from "commander";
import { ANY_USER } from "../../core/index.ts";
import { type ConcernOutcome, type ReflectionReason, type ThoughtEntry } from "../../core/internal.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, parseId, userOption } from "./shared.ts";
import { oneLine } from "./diary.ts";
import { localStamp } from "./local-time.ts";

/** Why a reflection stored no thought, in words. */
const REASONS: Record<ReflectionReason, string> = {
  "no-conversation": "no conversation yet",
  "no-new-chats": "no chats since the last reflection",
  "empty-answer": "the model's answer was empty",
  duplicate: "the thought was too close to one already stored",
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
        const entry = lilo.reflection.get(parseId(id));
        if (!entry) {
          io.err(`error: no thought #${id}`);
          return 1;
        }
        io.out(render(entry, lilo.config.timezone));
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
        if (r.kind === "failed") {
          io.err(`error: the reflection call failed: ${r.error}`);
          return 1;
        }
        if (r.released?.status === "open") io.out(`a queued concern is now open: #${r.released.topicId} ${r.released.text}`);
        const stored = r.kind === "thought" ? lilo.reflection.get(r.thought.id) : undefined;
        if (stored) io.out(`stored thought ${render(stored, lilo.config.timezone)}`);
        if (r.concern) io.out(`\nconcern: ${concernLine(r.concern)}: ${r.concern.text}`);
        if (r.kind === "skipped") io.out(`no new thought: ${REASONS[r.reason]}`);
        return 0;
      }),
    );
}

/** "open (topic #3, push: sent)", "queued (topic #4)", "duplicate". */
function concernLine(c: ConcernOutcome): string {
  if (c.status === "duplicate") return c.status;
  const push = c.status === "open" && c.push ? `, push: ${c.push}` : "";
  return `${c.status} (topic #${c.topicId}${push})`;
}

function render(t: ThoughtEntry, timeZone: string): string {
  const head = `#${t.id}  ${localStamp(t.createdAt, timeZone)}  ${t.origin}\n\n`;
  return head + t.parts.map((p) => (p.question ? `** ${p.question}\n${p.answer}` : p.answer)).join("\n\n");
}
