import { Api, Bot, type Middleware } from "grammy";
import { run, sequentialize, type RunnerHandle } from "@grammyjs/runner";
import { autoRetry } from "@grammyjs/auto-retry";
import { describeError, LiloError, type Lilo, type Logger, type MemoryHit } from "../../core/index.ts";
import { isCancelled, type Sleep } from "../../core/internal.ts";
import type { RunningAdapter } from "../adapter.ts";
import { InFlight } from "../shared/inflight.ts";
import { accessControl } from "./access.ts";
import { outageRetry } from "./outage.ts";
import { registerCallbacks } from "./callbacks.ts";
import { registerReminders, reminderRow } from "./reminders.ts";
import { availableCommands, registerCommands } from "./commands.ts";
import { registerWhy } from "./why.ts";
import type { LiloContext, TelegramDeps } from "./context.ts";
import { sendText } from "./render.ts";
import { TELEGRAM_TEXTS } from "./texts.ts";
import { TELEGRAM_TRANSPORT, telegramTransport } from "./transport.ts";
import { runTurn } from "./turn.ts";
import { durableInbox, resumeTelegram, storeOnArrival, telegramMessageId } from "./inbox.ts";
import { startWebhook, TELEGRAM_UPDATES, type WebhookServer } from "./webhook.ts";
import { registerMedia } from "./media.ts";
import { telegramFiles } from "./files.ts";
import { telegramConfig } from "./config.ts";
import { LiveAnswers } from "./live-answer.ts";
import { stopButtons } from "./stop.ts";

/** Options of one bot; `startTelegram` fills them from Telegram's configuration section (config.ts). */
export interface TelegramBotOptions {
  token: string;
  /** Bot API server (tests, self-hosted servers); default Telegram's. */
  apiRoot?: string;
  /** Telegram user id → Lilo user id; everyone else is refused. */
  allowedUsers: Record<string, string>;
  /** Webhook mode: queue each update per chat and return at once instead of awaiting it. */
  detach?: boolean;
  /** How the outage retry waits (tests pass a fast one). */
  sleep?: Sleep;
  /** The outage retry's jitter source (tests pass a fixed one). */
  random?: () => number;
}

/** A wired bot, not yet receiving updates. */
export interface TelegramBot {
  bot: Bot<LiloContext>;
  /** Turns still running; `stop` waits for them. */
  inflight: InFlight;
}

/** The running Telegram adapter. */
export interface TelegramAdapter extends RunningAdapter {
  bot: Bot<LiloContext>;
  /** Where the webhook listens, in webhook mode. */
  webhookAddress?: string;
  webhookPort?: number;
}

/** Updates of one chat run one after another; different chats run side by side. */
const chatKey = (ctx: LiloContext) => (ctx.chat ? String(ctx.chat.id) : undefined);

/**
 * Builds the bot: auto-retry (429 `retry_after`, network errors) on every
 * API call, in-flight tracking, per-chat order, the allowlist, then
 * commands, buttons and plain messages.
 */
export function createTelegramBot(lilo: Lilo, logger: Logger, opts: TelegramBotOptions): TelegramBot {
  const texts = TELEGRAM_TEXTS[lilo.config.persona.language];
  const deps: TelegramDeps = {
    lilo,
    logger,
    texts,
    lastNotes: new Map<string, MemoryHit[]>(),
    questionMessages: new Map<string, number>(),
    answerMessages: new Map<string, number>(),
    live: new LiveAnswers(),
    previews: new Api(opts.token, opts.apiRoot ? { apiRoot: opts.apiRoot } : {}),
    draftsRefused: new Set<string>(),
  };
  const bot = new Bot<LiloContext>(opts.token, opts.apiRoot ? { client: { apiRoot: opts.apiRoot } } : {});
  // Network failures first (innermost: each attempt logged with its delay), then rate limits and 5xx.
  const contact = { onContact: () => lilo.contacts.ok("telegram"), onFailure: (e: string) => lilo.contacts.failed("telegram", e) };
  bot.api.config.use(outageRetry({ logger, ...contact, sleep: opts.sleep, random: opts.random }));
  bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 300, rethrowHttpErrors: true }));
  // Stores each message before the next getUpdates confirms it (the webhook path stores it in the handler).
  bot.api.config.use(durableInbox(lilo, opts.allowedUsers));
  bot.catch((err) => logger.error("telegram update failed", { updateId: err.ctx.update.update_id, error: describeError(err.error) }));
  const inflight = new InFlight();
  bot.use(storeOnArrival(lilo, opts.allowedUsers));
  bot.use(track(inflight, opts.detach ?? false, logger));
  // Before the per-chat queue: a stop must reach the turn that holds it.
  bot.use(stopButtons(deps.live));
  bot.use(sequentialize(chatKey));
  bot.use(accessControl(opts.allowedUsers, texts, logger));
  bot.use(replyOnError(texts.failed, lilo.config.persona.language, logger));
  registerWhy(bot, deps);
  registerReminders(bot, deps);
  registerCommands(bot, deps);
  registerCallbacks(bot, deps);
  bot.on("message:text", async (ctx) => {
    const command = /^\/(\w+)(?:@(\w+))?/.exec(ctx.msg.text);
    // A command for another bot in a group ("/start@other_bot") is not Lilo's to answer.
    if (command?.[2] && command[2].toLowerCase() !== ctx.me.username.toLowerCase()) return;
    if (command) return void (await sendText(ctx.api, ctx.chat.id, texts.unknownCommand(command[1]!), logger));
    const message = {
      userId: ctx.liloUserId,
      text: ctx.msg.text,
      transport: TELEGRAM_TRANSPORT,
      chatId: String(ctx.chat.id),
      externalId: telegramMessageId(ctx.chat.id, ctx.msg.message_id),
    };
    await runTurn(ctx, deps, (options) => lilo.handleMessage(message, options));
  });
  registerMedia(bot, deps, telegramFiles(bot.api, opts.token, opts.apiRoot));
  return { bot, inflight };
}

/**
 * Counts every update as running work. With `detach` (webhook mode) the
 * middleware returns before the work is done, so Telegram's request is
 * answered at once; failures are then logged here, as nobody awaits them.
 */
function track(inflight: InFlight, detach: boolean, logger: Logger): Middleware<LiloContext> {
  return (ctx, next) => {
    const work = inflight.track(next());
    if (!detach) return work;
    work.catch((err: unknown) => logger.error("telegram update failed", { updateId: ctx.update.update_id, error: describeError(err) }));
    return Promise.resolve();
  };
}

/**
 * A failure inside Lilo gets a short note in the chat instead of silence: a
 * typed error says what went wrong in the persona's language, anything else
 * (a bug) the general "something went wrong".
 */
function replyOnError(general: string, language: "de" | "en", logger: Logger): Middleware<LiloContext> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      // Stopped past the grace time: the message waits in the inbox and is answered after the restart, so nothing is said now.
      if (isCancelled(err)) return logger.info("telegram turn cancelled on stop", { updateId: ctx.update.update_id });
      logger.error("telegram handler failed", { updateId: ctx.update.update_id, error: describeError(err) });
      const text = err instanceof LiloError ? `⚠️ ${describeError(err, language)}` : general;
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text });
      else if (ctx.chat) await ctx.api.sendMessage(ctx.chat.id, text);
    }
  };
}

/**
 * Starts Telegram when TELEGRAM_BOT_TOKEN is set: registers the push
 * transport and the command menu, then long polling with the grammY runner,
 * or the webhook when TELEGRAM_WEBHOOK_URL is set. Undefined without a token.
 */
export async function startTelegram(lilo: Lilo, logger: Logger): Promise<TelegramAdapter | undefined> {
  const cfg = telegramConfig(lilo.config);
  if (!cfg.token) return undefined;
  if (Object.keys(cfg.allowedUsers).length === 0) logger.warn("TELEGRAM_ALLOWED_USERS is empty: the bot refuses everyone");
  const { bot, inflight } = createTelegramBot(lilo, logger, {
    token: cfg.token,
    allowedUsers: cfg.allowedUsers,
    detach: !!cfg.webhookUrl,
    ...(cfg.apiRoot ? { apiRoot: cfg.apiRoot } : {}),
  });
  await bot.init();
  const texts = TELEGRAM_TEXTS[lilo.config.persona.language];
  await bot.api.setMyCommands(availableCommands(texts)).catch((err: unknown) => logger.warn("telegram command menu not set", { error: describeError(err) }));
  lilo.push.registerTransport(telegramTransport(bot.api, logger, (id) => reminderRow(lilo, id)));
  // What a crash left open is answered first, in order, before new messages come in.
  await resumeTelegram(lilo, bot.api, logger, telegramFiles(bot.api, cfg.token, cfg.apiRoot));
  let runner: RunnerHandle | undefined;
  let server: WebhookServer | undefined;
  try {
    if (cfg.webhookUrl) {
      server = await startWebhook(bot, { url: cfg.webhookUrl, host: cfg.webhookHost, port: cfg.webhookPort, logger });
    } else {
      await bot.api.deleteWebhook();
      runner = run(bot, { runner: { fetch: { allowed_updates: TELEGRAM_UPDATES } } });
      runner.task()?.catch((err: unknown) => logger.error("telegram polling stopped", { error: describeError(err) }));
    }
  } catch (err) {
    lilo.push.unregisterTransport(TELEGRAM_TRANSPORT);
    throw err;
  }
  logger.info(`telegram bot @${bot.botInfo.username} ${server ? `listening for webhook calls on ${server.address}:${server.port}` : "polling"}`);
  return {
    name: "telegram",
    bot,
    ...(server ? { webhookAddress: server.address, webhookPort: server.port } : {}),
    stop: async () => {
      // A polling failure was logged when it happened; stopping only ends the loop.
      await runner?.stop()?.catch(() => undefined);
      await server?.close();
      // As long as the turns take: the app's stop cancels them after LILO_SHUTDOWN_GRACE_S.
      await inflight.idle();
      lilo.push.unregisterTransport(TELEGRAM_TRANSPORT);
    },
  };
}
