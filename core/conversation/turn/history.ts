import type { ChatMessage } from "../../foundation/ports/chat-model.ts";
import type { ChatLogMessage } from "../../foundation/store/chat-log.ts";

/**
 * Earlier messages of the conversation as model turns. A message Lilo sent on
 * her own (a pushed greeting) gets `placeholder` as the user turn before it:
 * providers want a user turn first, and `alternate` would otherwise drop a
 * greeting that opens the conversation — the reply to it would lose its context.
 */
export function historyTurns(messages: ChatLogMessage[], placeholder: string): ChatMessage[] {
  return messages.flatMap((m): ChatMessage[] =>
    m.proactive
      ? [
          { role: "user", content: placeholder },
          { role: "assistant", content: m.text },
        ]
      : [{ role: m.role, content: m.text }],
  );
}
