import type { Lilo } from "../../../core/index.ts";
import { seedConversation } from "../../helpers/seed-conversation.ts";
import { seedDb } from "../../helpers/seed-db.ts";
import { ChatLog } from "../../../core/foundation/store/chat-log.ts";

/**
 * Five conversations across November 2026 for user "chris" (Christian):
 * one opened by a greeting Lilo sent on her own, the last one just after
 * local midnight of 1 December (still 30 November in UTC).
 */
export function seedAnalysisChats(lilo: Lilo): number[] {
  const ids = [
    seedConversation(lilo, "chris", [
      ["user", "Ich frage mich, ob du ehrlich bist", "2026-11-02T09:00:00Z"],
      ["assistant", "Ich versuche immer ehrlich zu sein, Christian.", "2026-11-02T09:01:00Z"],
    ]),
  ];
  const gid = seedDb(lilo, (sql) => {
    const greeting = sql
      .prepare(`INSERT INTO conversations (user_id, started_at, last_message_at, start_model) VALUES ('chris', ?, ?, 'anthropic:claude-greet')`)
      .run("2026-11-10T08:00:00Z", "2026-11-10T08:00:00Z");
    const id = Number(greeting.lastInsertRowid);
    const chatLog = new ChatLog(sql);
    chatLog.append({
      userId: "chris",
      conversationId: id,
      role: "assistant",
      text: "Guten Morgen Christian, wie war der Arzttermin?",
      model: "anthropic:claude-greet",
      createdAt: "2026-11-10T08:00:00Z",
      proactive: true,
    });
    chatLog.append({ userId: "chris", conversationId: id, role: "user", text: "Gut, danke der Nachfrage", createdAt: "2026-11-10T08:05:00Z" });
    chatLog.append({
      userId: "chris",
      conversationId: id,
      role: "assistant",
      text: "Das freut mich sehr für dich.",
      model: "anthropic:claude-greet",
      createdAt: "2026-11-10T08:06:00Z",
    });
    return id;
  });
  ids.push(gid);
  ids.push(
    seedConversation(lilo, "chris", [
      ["user", "Was denkst du eigentlich über Bewusstsein und ob Maschinen so etwas wie ein Innenleben haben können?", "2026-11-20T18:00:00Z"],
      ["assistant", "Ich glaube nicht, dass ich ein Bewusstsein habe, aber ich denke gern darüber nach.", "2026-11-20T18:01:00Z"],
    ]),
    seedConversation(lilo, "chris", [
      ["user", "Heute war ein langer Tag", "2026-11-25T19:00:00Z"],
      ["assistant", "Erzähl mir davon, Christian.", "2026-11-25T19:01:00Z"],
    ]),
    seedConversation(lilo, "chris", [
      ["user", "Noch wach um Mitternacht", "2026-11-30T23:30:00Z"],
      ["assistant", "Ich auch, wie immer.", "2026-11-30T23:31:00Z"],
    ]),
  );
  return ids;
}

/** One conversation of `count` messages of `chars` characters each (too long for one part). */
export function seedLongConversation(lilo: Lilo, at: string, count: number, chars: number): number {
  const start = Date.parse(at);
  return seedConversation(
    lilo,
    "chris",
    Array.from(
      { length: count },
      (_, i) =>
        [i % 2 === 0 ? "user" : "assistant", `Nachricht ${i} ${"x".repeat(chars)}`, new Date(start + i * 60_000).toISOString()] as [
          "user" | "assistant",
          string,
          string,
        ],
    ),
  );
}
