import { createInterface } from "node:readline/promises";
import type { Readable, Writable } from "node:stream";
import type { Lilo, TurnResult } from "../../core/index.ts";
import { terminalTexts, type TerminalTexts } from "./texts.ts";
import { terminalWhyCommand } from "./why-commands.ts";

export interface TerminalOptions {
  input: Readable;
  output: Writable;
  userId: string;
  /** Show a prompt marker; off when input is not a terminal (piped tests, scripts). */
  prompt?: boolean;
  /** Ends the chat (Ctrl-C): a message being answered is finished first, then runTerminal resolves. */
  signal?: AbortSignal;
  /** Where the log lines go instead of the screen; named once at the start. */
  logFile?: string;
}

/**
 * An interactive chat in the terminal, through the same core path as the
 * bots. Resolves when the input ends, the user types /quit or `signal` aborts.
 */
export async function runTerminal(lilo: Lilo, opts: TerminalOptions): Promise<void> {
  const rl = createInterface({ input: opts.input, output: opts.output, terminal: false, ...(opts.signal ? { signal: opts.signal } : {}) });
  const say = (text: string) => opts.output.write(`${text}\n`);
  const name = lilo.config.persona.name;
  const t = terminalTexts(lilo.config.persona.language);
  say(`${t.listening(name)} ${t.help}`);
  if (opts.logFile) say(t.logTo(opts.logFile));
  if (opts.prompt) opts.output.write("> ");
  for await (const line of rl) {
    const text = line.trim();
    if (text === "/quit" || text === "/exit") break;
    if (text) await handleLine(lilo, opts.userId, text, say, name, t);
    if (opts.prompt) opts.output.write("> ");
  }
  rl.close();
}

async function handleLine(lilo: Lilo, userId: string, text: string, say: (t: string) => void, name: string, t: TerminalTexts): Promise<void> {
  try {
    if (text === "/help") return say(t.help);
    if (await terminalWhyCommand(lilo, userId, text, say)) return;
    if (text === "/retry") {
      const r = await lilo.retry(userId);
      return r ? show(lilo, say, name, r) : say(t.nothingToRetry);
    }
    if (text === "/diary") {
      const r = await lilo.diary.writeNow(userId);
      return say(r.kind === "written" ? `📔 ${r.entry.text}` : t.noDiary(r.kind === "failed" ? "failed" : r.reason));
    }
    if (text === "/think") {
      const r = await lilo.reflection.thinkNow(userId);
      return say(r.kind === "thought" ? `💭 ${r.thought.text}` : t.noThought(r.kind === "failed" ? "failed" : r.reason));
    }
    if (text === "/model" || text.startsWith("/model ")) {
      const arg = text.slice("/model".length).trim();
      const spec = arg ? lilo.models.switchChat(arg, lilo.clock.now().toISOString()) : lilo.models.chatSpec();
      return say(t.chatModel(`${spec.provider}:${spec.model}`, !!arg));
    }
    show(lilo, say, name, await lilo.handleMessage({ userId, text, transport: "terminal", chatId: "terminal" }));
  } catch (err) {
    say(`⚠️ ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Prints an answer and records it as delivered (the terminal cannot refuse it). */
function show(lilo: Lilo, say: (t: string) => void, name: string, r: TurnResult): void {
  say(render(name, r));
  if (r.answerMessageId !== undefined) lilo.inbox.delivered(r.answerMessageId);
}

/** Text, mood and a yes/no question as typed choices. */
export function render(name: string, r: TurnResult): string {
  const mood = r.mood ? ` (${r.mood})` : "";
  let out = `${name}${mood}: ${r.text}`;
  if (r.question) out += `\n${r.question.text}\n  → ${r.question.choices.map((c) => c.label).join(" / ")}`;
  return out;
}
