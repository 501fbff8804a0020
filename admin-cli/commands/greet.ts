import type { Command } from "commander";
import type { GreetingPreview, GreetingReason } from "../../core/internal.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, userOption } from "./shared.ts";

/** Why the scheduled job would not greet now, in words. */
const BLOCKERS: Record<GreetingReason, string> = {
  "not-opted-in": "the user has not opted in to pushes (/push on in a chat)",
  "no-conversation": "the user never wrote",
  unanswered: "Lilo's last greeting is still unanswered",
  "recent-chat": "the user wrote less than LILO_GREETING_MIN_HOURS ago",
  "greeted-recently": "Lilo greeted less than LILO_GREETING_MIN_HOURS ago",
  "quiet-hours": "it is quiet hours (LILO_QUIET_HOURS): the push would be held back",
  "user-returned": "the user wrote while the greeting was written",
  boundary: "the greeting touched a topic the user asked Lilo never to bring up (lilo boundaries list)",
  "empty-answer": "the model's answer was empty",
};

/**
 * `lilo greet`: test a greeting. Writes one with the chat model from the last
 * messages and prints it; nothing is sent or stored, because sending needs the
 * running bot's connection (the scheduled job, LILO_GREETING_ENABLED, does that).
 */
export function registerGreet(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("greet")
    .description("test a greeting: write one from the last messages and print it (nothing sent or stored)")
    .option(...userOption)
    .option("--json", "print JSON: { text, pause, today, concern, blocker, reason, error }")
    .action((o: { user?: string; json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const userId = o.user ?? lilo.config.terminal.userId;
        const p = await lilo.greeting.preview(userId);
        if (o.json) io.out(JSON.stringify(previewJson(p)));
        else {
          if ("pause" in p) io.out(`greeting for ${userId} — pause: ${p.pause}; today: ${p.today}`);
          if ("concern" in p) io.out(`🧠 concern offered: ${p.concern}`);
          if (p.kind === "draft") io.out(`\n${p.text}\n`);
          io.out(p.blocker ? `the scheduled job would not greet now: ${BLOCKERS[p.blocker]}` : "the scheduled job would greet now");
          io.out("(a preview: nothing was sent or stored)");
        }
        if (p.kind === "failed") {
          io.err(`error: the greeting call failed: ${p.error}`);
          return 1;
        }
        if (p.kind === "skipped" && !o.json) io.out(`no greeting: ${BLOCKERS[p.reason]}`);
        return 0;
      }),
    );
}

/** The documented `--json` shape: { text, pause, today, concern, blocker, reason, error }, a failure as reason "failed". */
function previewJson(p: GreetingPreview): Record<string, unknown> {
  const { kind, ...fields } = p;
  return kind === "failed" ? { ...fields, reason: "failed" } : fields;
}
