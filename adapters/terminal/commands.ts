/**
 * The terminal's chat commands: one entry per command, the same commands
 * Telegram offers. A `/word` not in the table is refused here and never
 * reaches the model or the chat log.
 */
import { noDiaryText, noThoughtText } from "../../core/internal.ts";
import { type Lilo, type MemoryHit, type TurnResult } from "../../core/index.ts";
import { pushNotDelivered } from "../shared/push-texts.ts";
import { voiceCommand } from "../shared/voice-command.ts";
import { usageText } from "../shared/usage-texts.ts";
import { budgetCommandText } from "../shared/budget-texts.ts";
import { terminalWhyCommand } from "./why-commands.ts";
import type { TerminalTexts } from "./texts.ts";

/** The terminal's transport and chat: pushes opted in here are printed while the chat is open. */
import type { TerminalLiveAnswer } from "./live-answer.ts";

export const TERMINAL_TRANSPORT = "terminal";
export const TERMINAL_CHAT = "terminal";

/** How many of the newest notes /memory lists (as on Telegram). */
const NEWEST_NOTES = 5;

/** What a command may use. */
export interface TerminalSession {
  lilo: Lilo;
  userId: string;
  t: TerminalTexts;
  say(text: string): void;
  /** Prints an answer of Lilo's (completing what `live` printed of it) and records it as delivered. */
  show(result: TurnResult, live?: TerminalLiveAnswer): void;
  /** An answer printed as it is written, for `handleMessage(…, { stream: live.stream })`. */
  live(): TerminalLiveAnswer;
  /** The notes on the sheet of the last answer shown (for /memory). */
  lastNotes: MemoryHit[];
}

/** One chat command: `/name arg`. `quit` ends the chat (handled by the loop). */
export interface TerminalCommand {
  name: string;
  run(s: TerminalSession, arg: string): Promise<void> | void;
}

const line = (n: { id: number; text: string }) => `#${n.id} ${n.text}`;

/** The commands, in /help order. A new command is one entry here and its line in texts.ts. */
export const TERMINAL_COMMANDS: TerminalCommand[] = [
  { name: "help", run: (s) => s.say(helpText(s.t)) },
  {
    name: "model",
    // A refused name (ModelSwitchError) is said by the loop, in the persona's language.
    run: async (s, arg) => {
      const spec = arg ? await s.lilo.models.switchChat(arg, s.lilo.clock.now().toISOString()) : s.lilo.models.chatSpec();
      s.say(s.t.chatModel(`${spec.provider}:${spec.model}`, !!arg));
    },
  },
  {
    name: "memory",
    run: (s) => {
      const used = s.lilo.memory.getMany(
        s.userId,
        "notes",
        s.lastNotes.map((n) => n.id),
      );
      const newest = s.lilo.memory.list(s.userId, { store: "notes", limit: NEWEST_NOTES });
      s.say(used.length ? [s.t.notesUsedTitle, ...used.map(line)].join("\n") : s.t.notesUsedNone);
      s.say(newest.length ? [s.t.newestTitle, ...newest.map(line)].join("\n") : s.t.newestNone);
    },
  },
  { name: "why", run: (s, arg) => whyCommand(s, "why", arg) },
  { name: "wrong", run: (s, arg) => whyCommand(s, "wrong", arg) },
  { name: "outdated", run: (s, arg) => whyCommand(s, "outdated", arg) },
  {
    name: "forget",
    run: async (s, arg) => {
      const id = /^#?(\d+)$/.exec(arg);
      // Words (or a sheet key like N12) forget everywhere, with a yes/no question; a bare number is one note, as before.
      if (!arg) return s.say(s.t.forgetUsage);
      if (!id) return whyCommand(s, "forget", arg);
      // The core's rule: another user's note and a missing one get the same answer.
      const gone = await s.lilo.memory.forget(s.userId, "notes", Number(id[1]));
      s.say(gone ? s.t.forgotten(gone.text) : s.t.noSuchNote);
    },
  },
  {
    name: "retry",
    run: async (s) => {
      const live = s.live();
      const r = await s.lilo.retry(s.userId, { stream: live.stream });
      if (r) s.show(r, live);
      else s.say(s.t.nothingToRetry);
    },
  },
  {
    name: "diary",
    run: async (s) => {
      const r = await s.lilo.diary.writeNow(s.userId);
      s.say(r.kind === "written" ? `📔 ${r.entry.text}` : noDiaryText(s.lilo.config.persona.language, r));
    },
  },
  {
    name: "think",
    run: async (s) => {
      const r = await s.lilo.reflection.thinkNow(s.userId);
      s.say(r.kind === "thought" ? `💭 ${r.thought.text}` : noThoughtText(s.lilo.config.persona.language, r));
    },
  },
  { name: "push", run: push },
  { name: "usage", run: (s) => s.say(usageText(s.lilo.usage.overview(), s.lilo.config.persona.language)) },
  { name: "budget", run: (s) => s.say(budgetCommandText(s.lilo.usage.liftBudget(), s.lilo.config.persona.language)) },
  { name: "voice", run: (s, arg) => s.say(voiceCommand(s.lilo, s.userId, arg)) },
  { name: "quit", run: () => undefined },
];

async function whyCommand(s: TerminalSession, name: string, arg: string): Promise<void> {
  await terminalWhyCommand(s.lilo, s.userId, `/${name} ${arg}`.trim(), (text) => s.say(text));
}

async function push(s: TerminalSession, arg: string): Promise<void> {
  const { lilo, userId, t } = s;
  switch (arg.toLowerCase()) {
    case "on":
      lilo.push.optIn(userId, { transport: TERMINAL_TRANSPORT, chatId: TERMINAL_CHAT });
      return s.say(t.pushOn);
    case "off":
      lilo.push.optOut(userId);
      return s.say(t.pushOff);
    case "test": {
      // force: a test the user asked for goes out even in quiet hours.
      const outcome = await lilo.push.send(userId, { kind: "test", text: t.pushTestText }, { force: true });
      if (outcome !== "sent") s.say(pushNotDelivered(lilo.config.persona.language, outcome));
      return;
    }
    case "":
      return s.say(t.pushStatus(lilo.push.target(userId)?.transport === TERMINAL_TRANSPORT));
    default:
      return s.say(t.pushUsage);
  }
}

/** The /help text: one line per command of the table. */
export function helpText(t: TerminalTexts): string {
  return [t.helpTitle, ...TERMINAL_COMMANDS.map((c) => `/${c.name} – ${t.commands[c.name] ?? ""}`)].join("\n");
}

/** The command a line names (`/word rest`), or undefined for an ordinary message. A `/word` not in the table is `unknown`. */
export function parseCommand(text: string): { command: TerminalCommand; arg: string } | { unknown: string } | undefined {
  const m = /^\/([A-Za-z_]+)(?:@\S+)?(?:\s+([\s\S]*))?$/.exec(text);
  if (!m) return undefined;
  const name = m[1]!.toLowerCase();
  const command = TERMINAL_COMMANDS.find((c) => c.name === name || (name === "exit" && c.name === "quit"));
  return command ? { command, arg: (m[2] ?? "").trim() } : { unknown: m[1]! };
}
