import type { TopicsStore } from "../../foundation/store/topics.ts";
import type { RemindersStore } from "../../foundation/store/reminders.ts";
import type { DeliveredHandler } from "./push.ts";
import type { AfterDelivery } from "../../foundation/store/push-outbox.ts";
import { recordProactive, type ProactiveDeps } from "./proactive.ts";

/**
 * The bookkeeping of a delivered push, in whichever process delivered it
 * (the bot for a push the CLI queued): the text goes into the chat log as
 * Lilo's proactive message, a pushed 🧠 concern's topic is done.
 */
export function deliveredBookkeeping(deps: ProactiveDeps & { topics: TopicsStore; reminders?: RemindersStore }): DeliveredHandler {
  return async (userId: string, text: string, after: AfterDelivery) => {
    const messageId = after.proactive ? await recordProactive(deps, userId, text, after.proactive.model) : undefined;
    if (after.topicDone !== undefined) deps.topics.markDone(after.topicDone, deps.clock.now().toISOString());
    // A rung reminder knows her message, for /why and "what did you remind me of?".
    if (after.reminder !== undefined && messageId !== undefined) deps.reminders?.deliveredAs(after.reminder, messageId, deps.clock.now().toISOString());
    return messageId;
  };
}
