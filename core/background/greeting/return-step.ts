import type { LiloConfig } from "../../foundation/config/config.ts";
import type { ChatHistory } from "../../foundation/store/chat-history.ts";
import type { ChatLog } from "../../foundation/store/chat-log.ts";
import type { TurnContext, TurnMiddleware } from "../../conversation/turn/types.ts";
import type { Persona } from "../../conversation/persona/persona.ts";
import { GREETING_SELF_LABEL, returnExtra } from "../prompts/greeting.ts";
import { returnContext } from "./context.ts";

/**
 * The greeting on return (docs/spec.md §9, the seed's proactive mode in a chat app):
 * when a message opens a new conversation after the pause, the cheat sheet
 * gets the pause in words, today's date and the last messages before it, so
 * an appointment "tomorrow" said yesterday is asked about, not wished luck.
 * Not when Lilo already greeted on her own in this conversation: that
 * greeting was written from the same context and is in the history.
 */
export function returnGreeting(
  deps: { persona: Persona; chatLog: ChatLog; history: ChatHistory },
  config: { greeting: Pick<LiloConfig["greeting"], "messages">; timezone: string },
): TurnMiddleware {
  return {
    name: "return-greeting",
    readOnly: true,
    async run(ctx, next) {
      const lines = greetingContext(deps, config, ctx);
      if (lines) ctx.sheet.returnGreeting = lines;
      await next();
    },
  };
}

function greetingContext(
  deps: { persona: Persona; chatLog: ChatLog; history: ChatHistory },
  config: { greeting: Pick<LiloConfig["greeting"], "messages">; timezone: string },
  ctx: TurnContext,
): string | undefined {
  if (!ctx.isNewConversation) return undefined;
  if (deps.chatLog.recent(ctx.conversationId, 1, ctx.userMessage.id).length > 0) return undefined;
  const earlier = deps.history.beforeConversation(ctx.userId, ctx.conversationId, config.greeting.messages);
  const lang = deps.persona.language;
  const name = deps.persona.userName(ctx.userId);
  const c = returnContext(earlier, ctx.now, { timeZone: config.timezone, language: lang, userName: name, selfLabel: GREETING_SELF_LABEL[lang] });
  return c ? returnExtra(lang, c, name) : undefined;
}
