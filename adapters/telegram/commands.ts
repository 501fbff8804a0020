import type { Composer } from "grammy";
import { describeError, LiloError } from "../../core/index.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { memoryOverview } from "./memory-view.ts";
import { diaryReply, thinkReply } from "./on-demand.ts";
import { pushNotDelivered } from "../shared/push-texts.ts";
import { usageText } from "../shared/usage-texts.ts";
import { budgetCommandText } from "../shared/budget-texts.ts";
import { voiceCommand } from "../shared/voice-command.ts";
import { sendText, withTyping } from "./render.ts";
import type { TelegramTexts } from "./texts.ts";
import { runTurn } from "./turn.ts";
import { TELEGRAM_TRANSPORT } from "./transport.ts";
import { registerWebCommand } from "./web-command.ts";

/** A chat command as /help and Telegram's command menu show it. */
export interface BotCommand {
  command: keyof TelegramTexts["commands"];
  description: string;
}

/** The commands this Lilo offers, in /help order. */
export function availableCommands(texts: TelegramTexts): BotCommand[] {
  const names: BotCommand["command"][] = [
    "start",
    "help",
    "model",
    "memory",
    "why",
    "forget",
    "retry",
    "diary",
    "think",
    "push",
    "remind",
    "reminders",
    "usage",
    "budget",
    "web",
    "voice",
  ];
  return names.map((command) => ({ command, description: texts.commands[command] }));
}

function helpText(texts: TelegramTexts): string {
  return [texts.helpTitle, ...availableCommands(texts).map((c) => `/${c.command} – ${c.description}`)].join("\n");
}

/** Registers /start, /help, /model, /memory, /retry, /diary, /think, /push, /usage, /budget, /web and /voice (/why and /forget: why.ts). */
export function registerCommands(bot: Composer<LiloContext>, deps: TelegramDeps): void {
  const { lilo, logger, texts } = deps;
  const say = (ctx: LiloContext, text: string) => sendText(ctx.api, ctx.chat!.id, text, logger);

  bot.command("start", (ctx) => say(ctx, `${texts.start(lilo.config.persona.name)}\n\n${helpText(texts)}`));
  bot.command("help", (ctx) => say(ctx, helpText(texts)));

  bot.command("model", async (ctx) => {
    try {
      const arg = ctx.match.trim();
      const spec = arg ? await lilo.models.switchChat(arg, lilo.clock.now().toISOString()) : lilo.models.chatSpec();
      await say(ctx, (arg ? texts.modelSwitched : texts.model)(`${spec.provider}:${spec.model}`));
    } catch (err) {
      // A wrong model name is the user's to fix: the refusal says what to write, in the persona's language.
      if (!(err instanceof LiloError)) throw err;
      await say(ctx, `⚠️ ${describeError(err, lilo.config.persona.language)}`);
    }
  });

  bot.command("voice", (ctx) => say(ctx, voiceCommand(lilo, ctx.liloUserId, ctx.match)));
  bot.command("usage", (ctx) => say(ctx, usageText(lilo.usage.overview(), lilo.config.persona.language)));
  bot.command("budget", (ctx) => say(ctx, budgetCommandText(lilo.usage.liftBudget(), lilo.config.persona.language)));

  bot.command("memory", async (ctx) => {
    const view = memoryOverview(deps, ctx.liloUserId, String(ctx.chat.id));
    await sendText(ctx.api, ctx.chat.id, view.text, logger, view.keyboard);
  });

  // /forget, /why, /wrong and /outdated: why.ts.

  bot.command("retry", async (ctx) => {
    const result = await runTurn(ctx, deps, (options) => lilo.retry(ctx.liloUserId, options));
    if (!result) await say(ctx, texts.nothingToRetry);
  });

  bot.command("push", async (ctx) => {
    const arg = ctx.match.trim().toLowerCase();
    const userId = ctx.liloUserId;
    if (arg === "on") {
      lilo.push.optIn(userId, { transport: TELEGRAM_TRANSPORT, chatId: String(ctx.chat.id) });
      return void (await say(ctx, texts.pushOn));
    }
    if (arg === "off") {
      lilo.push.optOut(userId);
      return void (await say(ctx, texts.pushOff));
    }
    if (arg === "test") {
      // force: a test the user asked for goes out even in quiet hours.
      const outcome = await lilo.push.send(userId, { kind: "test", text: texts.pushTestText }, { force: true });
      if (outcome !== "sent") await say(ctx, pushNotDelivered(lilo.config.persona.language, outcome));
      return;
    }
    const target = lilo.push.target(userId);
    await say(ctx, texts.pushStatus(target?.transport === TELEGRAM_TRANSPORT && target.chatId === String(ctx.chat.id)));
  });

  // "Write now" / "think now" can take a while (a model call): typing… meanwhile.
  bot.command("diary", async (ctx) => {
    const result = await withTyping(ctx.api, ctx.chat.id, logger, () => lilo.diary.writeNow(ctx.liloUserId));
    await say(ctx, diaryReply(result, texts, lilo.config.persona.language));
  });

  bot.command("think", async (ctx) => {
    const result = await withTyping(ctx.api, ctx.chat.id, logger, () => lilo.reflection.thinkNow(ctx.liloUserId));
    await say(ctx, thinkReply(result, texts, lilo.config.persona.language));
  });

  registerWebCommand(bot, deps);
}
