import type { Composer } from "grammy";
import { LiloError, type Lilo } from "../../core/index.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { forgetNote, memoryOverview } from "./memory-view.ts";
import { sendText, withTyping } from "./render.ts";
import type { TelegramTexts } from "./texts.ts";
import { runTurn } from "./turn.ts";
import { TELEGRAM_TRANSPORT } from "./transport.ts";

/** A chat command as /help and Telegram's command menu show it. */
export interface BotCommand {
  command: keyof TelegramTexts["commands"];
  description: string;
}

/**
 * "Write now" / "think now" are added to the core by the diary and
 * reflection work; until `createLilo` provides them, /diary and /think are
 * neither registered nor listed. Looked up by shape so this file compiles
 * before and after they exist.
 */
type OnDemand = {
  diary?: { writeNow?: (userId: string) => Promise<unknown> };
  reflection?: { thinkNow?: (userId: string) => Promise<unknown> };
};

function onDemand(lilo: Lilo): { diary?: (userId: string) => Promise<unknown>; think?: (userId: string) => Promise<unknown> } {
  const l = lilo as unknown as OnDemand;
  const diary = l.diary?.writeNow;
  const think = l.reflection?.thinkNow;
  return {
    ...(typeof diary === "function" ? { diary: (u: string) => diary.call(l.diary, u) } : {}),
    ...(typeof think === "function" ? { think: (u: string) => think.call(l.reflection, u) } : {}),
  };
}

/** The commands this Lilo offers, in /help order. */
export function availableCommands(lilo: Lilo, texts: TelegramTexts): BotCommand[] {
  const extra = onDemand(lilo);
  const names: BotCommand["command"][] = ["start", "help", "model", "memory", "forget", "retry", "push"];
  if (extra.diary) names.push("diary");
  if (extra.think) names.push("think");
  return names.map((command) => ({ command, description: texts.commands[command] }));
}

function helpText(lilo: Lilo, texts: TelegramTexts): string {
  return [texts.helpTitle, ...availableCommands(lilo, texts).map((c) => `/${c.command} – ${c.description}`)].join("\n");
}

/** Shows what an on-demand job returned: its text when it has one. */
function describeResult(result: unknown, texts: TelegramTexts): string {
  if (typeof result === "string" && result.trim()) return result;
  if (result && typeof result === "object" && "text" in result && typeof result.text === "string" && result.text.trim()) return result.text;
  return texts.done;
}

/** Registers /start, /help, /model, /memory, /forget, /retry, /push (and /diary, /think when the core has them). */
export function registerCommands(bot: Composer<LiloContext>, deps: TelegramDeps): void {
  const { lilo, logger, texts } = deps;
  const say = (ctx: LiloContext, text: string) => sendText(ctx.api, ctx.chat!.id, text, logger);

  bot.command("start", (ctx) => say(ctx, `${texts.start(lilo.config.persona.name)}\n\n${helpText(lilo, texts)}`));
  bot.command("help", (ctx) => say(ctx, helpText(lilo, texts)));

  bot.command("model", async (ctx) => {
    try {
      const arg = ctx.match.trim();
      const spec = arg ? lilo.models.switchChat(arg, lilo.clock.now().toISOString()) : lilo.models.chatSpec();
      await say(ctx, (arg ? texts.modelSwitched : texts.model)(`${spec.provider}:${spec.model}`));
    } catch (err) {
      // A wrong model name is the user's to fix: ConfigError says what to write.
      if (!(err instanceof LiloError)) throw err;
      await say(ctx, `⚠️ ${err.message}`);
    }
  });

  bot.command("memory", async (ctx) => {
    const view = memoryOverview(deps, ctx.liloUserId, String(ctx.chat.id));
    await sendText(ctx.api, ctx.chat.id, view.text, logger, view.keyboard);
  });

  bot.command("forget", async (ctx) => {
    const id = /^#?(\d+)$/.exec(ctx.match.trim());
    if (!id) return void (await say(ctx, texts.forgetUsage));
    await say(ctx, (await forgetNote(deps, ctx.liloUserId, Number(id[1]))).text);
  });

  bot.command("retry", async (ctx) => {
    const result = await runTurn(ctx, deps, () => lilo.retry(ctx.liloUserId));
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
      if (outcome !== "sent") await say(ctx, texts.pushTestOutcome(outcome));
      return;
    }
    const target = lilo.push.target(userId);
    await say(ctx, texts.pushStatus(target?.transport === TELEGRAM_TRANSPORT && target.chatId === String(ctx.chat.id)));
  });

  const extra = onDemand(lilo);
  for (const [command, run] of [["diary", extra.diary], ["think", extra.think]] as const) {
    if (!run) continue;
    bot.command(command, async (ctx) => {
      const result = await withTyping(ctx.api, ctx.chat.id, logger, () => run(ctx.liloUserId));
      await say(ctx, describeResult(result, texts));
    });
  }
}
