import type { Command } from "commander";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";

/** `lilo model [provider:model]`: show or switch the chat model (memory stays the same). */
export function registerModel(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("model [spec]")
    .description("show the chat model, or switch it at run time, e.g. `lilo model deepseek:deepseek-chat`")
    .option("--reset", "go back to the model from the configuration")
    .action((spec: string | undefined, o: { reset?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        if (o.reset) lilo.models.resetChat();
        else if (spec) await lilo.models.switchChat(spec, lilo.clock.now().toISOString());
        const now = lilo.models.chatSpec();
        io.out(`chat model: ${now.provider}:${now.model}`);
        return 0;
      }),
    );
}
