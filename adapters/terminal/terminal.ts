import { createInterface } from "node:readline/promises";
import type { Readable, Writable } from "node:stream";
import { describeError, type Lilo, type Question, type TurnResult } from "../../core/index.ts";
import { MOOD_NAMES } from "../../core/internal.ts";
import { terminalTexts } from "./texts.ts";
import { PAUSED_EMOJI } from "../shared/mood-emoji.ts";
import { TerminalLiveAnswer } from "./live-answer.ts";
import { speakToFile } from "./voice.ts";
import { helpText, parseCommand, TERMINAL_CHAT, TERMINAL_TRANSPORT, type TerminalSession } from "./commands.ts";

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
  const session: TerminalSession = {
    lilo,
    userId: opts.userId,
    t,
    say,
    lastNotes: [],
    show: (r, live) => {
      session.lastNotes = r.notesUsed;
      if (!live?.finish(r, moodSuffix(r, lilo.config.persona.language))) say(render(name, r, lilo.config.persona.language));
      else if (r.question) say(questionText(r.question));
      if (r.answerMessageId !== undefined) lilo.inbox.delivered(r.answerMessageId);
    },
    live: () => new TerminalLiveAnswer(opts.output, name),
  };
  // Pushes opted in to the terminal (/push on) are printed while the chat is open; afterwards they wait in the outbox.
  lilo.push.registerTransport({ name: TERMINAL_TRANSPORT, send: async (_target, message) => void say(`🔔 ${name}: ${message.text}`) });
  say(`${t.listening(name)} ${helpText(t)}`);
  if (opts.logFile) say(t.logTo(opts.logFile));
  if (opts.prompt) opts.output.write("> ");
  try {
    for await (const line of rl) {
      const text = line.trim();
      const parsed = parseCommand(text);
      if (parsed && "command" in parsed && parsed.command.name === "quit") break;
      if (text) await handleLine(session, text, parsed);
      if (opts.prompt) opts.output.write("> ");
    }
  } finally {
    lilo.push.unregisterTransport(TERMINAL_TRANSPORT);
    rl.close();
  }
}

/** A command runs from the table; an unknown `/word` is refused here; anything else is a message for Lilo. */
async function handleLine(s: TerminalSession, text: string, parsed: ReturnType<typeof parseCommand>): Promise<void> {
  try {
    if (parsed && "unknown" in parsed) return s.say(s.t.unknownCommand(parsed.unknown));
    if (parsed) return await parsed.command.run(s, parsed.arg);
    const live = s.live();
    const result = await s.lilo.handleMessage({ userId: s.userId, text, transport: TERMINAL_TRANSPORT, chatId: TERMINAL_CHAT }, { stream: live.stream });
    s.show(result, live);
    // After `/voice on` (typed messages are no voice notes): the audio file's path beside the text.
    if (result.ok && !result.paused && result.text && s.lilo.voice.wants(s.userId, false)) await speakToFile(s.lilo, s.userId, result.text, s.say);
  } catch (err) {
    // Refusals and failures in the persona's language; the log keeps the English message.
    s.lilo.logger.warn("terminal line failed", { error: describeError(err) });
    s.say(`⚠️ ${describeError(err, s.lilo.config.persona.language)}`);
  }
}

/** Text, mood (named in the persona's language) and a yes/no question as typed choices. */
export function render(name: string, r: TurnResult, language: "de" | "en" = "de"): string {
  // Held back by the budget's cap, the person told already today: the sign a chat shows as a reaction.
  if (r.paused && !r.text) return `${name}: ${PAUSED_EMOJI}`;
  let out = `${name}${moodSuffix(r, language)}: ${r.text}`;
  if (r.question) out += `\n${questionText(r.question)}`;
  return out;
}

/** The mood in the persona's language, in brackets after a space; empty without one. An answer printed as it was written has it at the end. */
function moodSuffix(r: TurnResult, language: "de" | "en"): string {
  return r.mood ? ` (${MOOD_NAMES[language][r.mood]})` : "";
}

/** A yes/no question with its typed choices. */
function questionText(q: Question): string {
  return `${q.text}\n  → ${q.choices.map((c) => c.label).join(" / ")}`;
}
