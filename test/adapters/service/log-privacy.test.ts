import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CrashWorld, TG_CHAT, until, type Proc } from "../../crash/world.ts";
import { isExtraction } from "../../helpers/test-lilo.ts";

/** Words of the user's message, and words only Lilo's answer has (the extraction's fact made of them is dropped). */
const USER_PHRASE = "Zitronenfalterquartett";
const ANSWER_PHRASE = "Marmorkuchenorakel";

/**
 * The real bot process at debug level with LILO_LOG_FORMAT=json: one turn
 * whose message, answer and extracted memories carry distinctive phrases,
 * then a graceful stop. The log (data/lilo.log and stderr) holds ids and
 * sizes, never the text.
 */
describe("the log of the real process", () => {
  let w: CrashWorld;
  let bot: Proc;
  let logText = "";

  beforeAll(async () => {
    w = await CrashWorld.create();
    w.llm.replyAlways((body) => {
      if (isExtraction(body.system))
        return JSON.stringify({
          facts: [`Christian sammelt das ${USER_PHRASE}`, `Christian mag das ${ANSWER_PHRASE}`],
          content: [`${USER_PHRASE} gesammelt`],
          profile: [],
          important: [{ text: `${USER_PHRASE} ist ihm wichtig`, weight: 2 }],
        });
      return `Antwort x201: das ${ANSWER_PHRASE} sagt ja.`;
    });
    w.extraEnv = { LILO_LOG_LEVEL: "debug", LILO_LOG_FORMAT: "json", MATRIX_HOMESERVER_URL: "", MATRIX_ACCESS_TOKEN: "" };
    bot = await w.startBot(/telegram adapter running/);
    w.tg.pushMessage({ fromId: TG_CHAT, chatId: TG_CHAT, text: `Ich sammle das ${USER_PHRASE} x201` });
    // The extraction ran (its dropped fact is logged) and its memories are stored.
    await until(
      () => /facts not taken from the user's words were dropped/.test(bot.output()),
      30_000,
      () => bot.output().slice(-2000),
    );
    expect(await w.stop(bot)).toBe(0);
    logText = readdirSync(w.dir)
      .filter((f) => f.startsWith("lilo.log"))
      .map((f) => readFileSync(join(w.dir, f), "utf8"))
      .join("");
  }, 60_000);
  afterAll(async () => {
    if (bot && bot.child.exitCode === null) await w.kill(bot);
    await w?.close();
  });

  it("stores the phrase as memory but writes it 0 times into the log file or stderr at debug level", () => {
    // The turn really carried the phrase: it is in the database, so its absence from the log means something.
    expect(w.query<{ n: number }>("SELECT count(*) AS n FROM messages WHERE text LIKE ?", `%${USER_PHRASE}%`)[0]!.n).toBeGreaterThan(0);
    expect(logText).toContain("facts not taken from the user's words were dropped");
    for (const phrase of [USER_PHRASE, ANSWER_PHRASE]) {
      expect(logText.split(phrase).length - 1, phrase).toBe(0);
      expect(bot.output().split(phrase).length - 1, phrase).toBe(0);
    }
  });

  it("writes one JSON object a line with time, level and event when LILO_LOG_FORMAT is json", () => {
    const lines = logText.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      const o = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(o).slice(0, 3), line).toEqual(["time", "level", "event"]);
      expect(Number.isNaN(Date.parse(String(o.time)))).toBe(false);
      expect(["debug", "info", "warn", "error"]).toContain(o.level);
    }
    expect(lines.at(-1)).toContain('"event":"stopped"');
  });
});
