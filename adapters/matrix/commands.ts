import { describeError } from "../../core/index.ts";
import { noDiaryText, noThoughtText } from "../../core/internal.ts";
import { pushNotDelivered } from "../shared/push-texts.ts";
import { usageText } from "../shared/usage-texts.ts";
import { budgetCommandText } from "../shared/budget-texts.ts";
import { voiceCommand } from "../shared/voice-command.ts";
import type { MatrixContext, MatrixEventSource } from "./context.ts";
import { deliverTurn } from "./reply.ts";
import { liveAnswer } from "./live-answer.ts";
import { sendMarkdown, withTyping } from "./send.ts";
import { WHY_COMMANDS } from "./why.ts";
import { REMINDER_COMMANDS } from "./reminders.ts";

/**
 * Chat commands, written `!name` or `/name` (Element and other clients
 * catch some slash commands such as /help themselves, so `!` always works).
 * Same set as on Telegram where it makes sense.
 */

type Command = (ctx: MatrixContext, source: MatrixEventSource, arg: string) => Promise<string | void>;

const COMMAND = /^[!/]([a-z]+)(?:\s+([\s\S]*))?$/i;

/** Is this text a command (answered by the adapter, not a chat turn)? */
export const isCommand = (text: string): boolean => COMMAND.test(text.trim());
const NEWEST_NOTES = 10;
const FOUND_NOTES = 5;

const COMMANDS: Record<string, Command> = {
  help: async (ctx) => ctx.texts.help.join("\n"),
  usage: async (ctx) => usageText(ctx.lilo.usage.overview(), ctx.lilo.config.persona.language),
  budget: async (ctx) => budgetCommandText(ctx.lilo.usage.liftBudget(), ctx.lilo.config.persona.language),
  voice: async (ctx, s, arg) => voiceCommand(ctx.lilo, s.userId, arg),
  model: async (ctx, _s, arg) => {
    const { models, clock } = ctx.lilo;
    const label = () => `${models.chatSpec().provider}:${models.chatSpec().model}`;
    if (!arg) return ctx.texts.model(label());
    if (arg === "reset") {
      models.resetChat();
      return ctx.texts.modelReset(label());
    }
    // A refused name is said by runCommand, in the persona's language.
    const spec = await models.switchChat(arg, clock.now().toISOString());
    return ctx.texts.modelSwitched(`${spec.provider}:${spec.model}`);
  },
  push: async (ctx, s, arg) => {
    const { push } = ctx.lilo;
    if (arg === "on") {
      push.optIn(s.userId, { transport: "matrix", chatId: s.roomId });
      return ctx.texts.pushOn;
    }
    if (arg === "off") {
      push.optOut(s.userId);
      return ctx.texts.pushOff;
    }
    if (arg === "test") {
      const outcome = await push.send(s.userId, { kind: "test", text: ctx.texts.pushTestText }, { force: true });
      // When it was sent, the test message itself is the answer.
      return outcome === "sent" ? undefined : pushNotDelivered(ctx.lilo.config.persona.language, outcome);
    }
    if (!arg) {
      const target = push.target(s.userId);
      return ctx.texts.pushStatus(target && `${target.transport} ${target.chatId}`);
    }
    return ctx.texts.pushUsage;
  },
  retry: async (ctx, s) => {
    const live = liveAnswer(ctx, s.roomId);
    const result = await withTyping(ctx.client, ctx.logger, s.roomId, () => ctx.lilo.retry(s.userId, { stream: live.stream }));
    if (!result) return ctx.texts.nothingToRetry;
    await deliverTurn(ctx, s, result, { live });
  },
  memory: async (ctx, s, arg) => {
    const notes = arg
      ? (await ctx.lilo.memory.search(arg, { userId: s.userId, store: "notes", k: FOUND_NOTES })).map((h) => ({ id: h.id, text: h.text }))
      : ctx.lilo.memory.list(s.userId, { store: "notes", limit: NEWEST_NOTES });
    if (notes.length === 0) return ctx.texts.noNotes;
    return [ctx.texts.notesHeader, ...notes.map((n) => `- \`${n.id}\` ${n.text}`)].join("\n");
  },
  diary: async (ctx, s) => {
    const r = await withTyping(ctx.client, ctx.logger, s.roomId, () => ctx.lilo.diary.writeNow(s.userId));
    if (r.kind === "written") return ctx.texts.diaryEntry(r.entry.day, r.entry.text);
    return noDiaryText(ctx.lilo.config.persona.language, r);
  },
  think: async (ctx, s) => {
    const r = await withTyping(ctx.client, ctx.logger, s.roomId, () => ctx.lilo.reflection.thinkNow(s.userId));
    // The thought is shown; a concern it raised stays Lilo's to bring up later in conversation.
    if (r.kind === "thought") return ctx.texts.thought(r.thought.text);
    return noThoughtText(ctx.lilo.config.persona.language, r);
  },
  // !why, !wrong, !outdated and !forget: why.ts.
  ...WHY_COMMANDS,
  // !remind, !reminders and their typed actions !done, !snooze, !delete: reminders.ts.
  ...REMINDER_COMMANDS,
};

/**
 * Runs `text` as a command when it is one. Returns false for ordinary
 * messages, which then go to the chat turn.
 */
export async function runCommand(ctx: MatrixContext, source: MatrixEventSource, text: string): Promise<boolean> {
  const m = COMMAND.exec(text.trim());
  if (!m) return false;
  const name = m[1]!.toLowerCase();
  const command = COMMANDS[name];
  let reply: string | void;
  try {
    reply = command ? await command(ctx, source, (m[2] ?? "").trim()) : ctx.texts.unknown(m[0].split(/\s/)[0]!);
  } catch (err) {
    ctx.logger.warn("matrix command failed", { command: name, error: describeError(err) });
    reply = ctx.texts.failed(describeError(err, ctx.lilo.config.persona.language));
  }
  if (reply) await sendMarkdown(ctx.client, source.roomId, reply, ctx.maxMessageChars);
  return true;
}
