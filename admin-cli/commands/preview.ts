import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { userOption, withLilo } from "./shared.ts";
import { describeBlocks } from "./preview-blocks.ts";

/** `lilo preview "message"`: the exact cheat sheet Lilo would send now, without sending or storing anything. */
export function registerPreview(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("preview <message>")
    .description("show the cheat sheet Lilo would send for a message (stores nothing, calls no model)")
    .option(...userOption)
    .option("--json", "print the request as JSON (without the block report)")
    .action((message: string, o: { user?: string; json?: boolean }) => {
      // Refused before Lilo (and her embedding model) is opened: an empty sheet is nothing to look at.
      if (!message.trim()) {
        io.err("error: the message to preview is empty: give the text Lilo would get, e.g. lilo preview 'Wie war mein Tag?'");
        process.exitCode = 1;
        return;
      }
      return withLilo(open, io, async (lilo) => {
        const { request, blocks } = await lilo.preview({ userId: o.user ?? lilo.config.terminal.userId, text: message });
        if (o.json) io.out(JSON.stringify(request));
        else {
          io.out(`── system ──\n${request.system}`);
          for (const m of request.messages) io.out(`── ${m.role} ──\n${m.content}`);
          io.out(`── memory blocks (scores; - = left out for budget) ──\n${describeBlocks(blocks).join("\n")}`);
        }
        return 0;
      });
    });
}
