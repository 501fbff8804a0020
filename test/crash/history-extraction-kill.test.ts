import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CrashWorld, tokens, until } from "./world.ts";

/**
 * The extraction of an imported chat, killed with SIGKILL in the middle of
 * its pieces, goes on from the piece it was reading when the bot starts: the
 * real `lilo` CLI and the real bot, each its own process.
 */
describe("history extraction killed and resumed", () => {
  let w: CrashWorld;
  const conversations = tokens(700, 5);

  beforeAll(async () => {
    w = await CrashWorld.create();
  }, 30_000);
  afterAll(async () => {
    await w?.close();
  });

  it("kill -9 while it reads the third conversation: the bot's next start reads only what was left, each conversation once", async () => {
    // Five conversations, a day apart, each with its own token: the fake model holds the third one's answer.
    const lines = conversations.map(
      (t, i) => `0${i + 1}.11.25, 18:0${i} - Christian: Ich trinke heute grünen Tee (${t}).\n0${i + 1}.11.25, 18:1${i} - Mara: Schön!`,
    );
    const file = join(w.dir, "chat.txt");
    writeFileSync(file, `${lines.join("\n")}\n`);
    w.hold(`extract:${conversations[2]!}`);
    const first = w.cli(["import-history", file, "--me", "Christian", "--apply"]);
    const asked = (t: string) => w.llm.requests.filter((b) => String(b.messages.at(-1)?.content).includes(t)).length;
    const progress = () =>
      w
        .query<{ payload: string }>(`SELECT payload FROM jobs WHERE kind = 'maintenance:history-extraction' AND status = 'pending'`)
        .map((r) => JSON.parse(r.payload) as { done: number })[0]?.done ?? 0;
    await until(
      // The database is queried only once the run says it reads: before that it may still be being created.
      () => (/reading 10 messages/.test(first.output()) && progress() === 4 && asked(conversations[2]!) === 1) || first.child.exitCode !== null,
      30_000,
      () => first.output(),
    );
    await w.kill(first);
    expect(first.output()).toContain("added 10 messages");
    expect(conversations.map(asked)).toEqual([1, 1, 1, 0, 0]);

    w.release();
    // The bot's start continues it in the background.
    const bot = await w.startBot();
    await until(
      () => w.query(`SELECT id FROM jobs WHERE kind = 'maintenance:history-extraction' AND status = 'pending'`).length === 0,
      60_000,
      () => bot.output(),
    );
    expect(bot.output()).toContain("continuing the memories of imported chats");
    await w.kill(bot);
    // The third is asked again (its answer never came); the first two are not.
    expect(conversations.map(asked)).toEqual([1, 1, 2, 1, 1]);
  }, 60_000);
});
