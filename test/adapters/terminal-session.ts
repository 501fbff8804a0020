import { PassThrough } from "node:stream";
import { runTerminal, type TerminalOptions } from "../../adapters/terminal/terminal.ts";
import type { Lilo } from "../../core/index.ts";

/**
 * Types `lines` into the terminal chat, one after the other, ends the input
 * and returns everything it printed once it has stopped. `before` runs after
 * the chat has started and before the first line.
 */
export async function typeIntoTerminal(
  lilo: Lilo,
  lines: string[],
  opts: Partial<Omit<TerminalOptions, "input" | "output">> & { before?: () => void } = {},
): Promise<string> {
  const { before, ...rest } = opts;
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = "";
  output.on("data", (c) => (printed += String(c)));
  const done = runTerminal(lilo, { userId: "owner", ...rest, input, output });
  before?.();
  input.end(lines.map((l) => `${l}\n`).join(""));
  await done;
  return printed;
}
