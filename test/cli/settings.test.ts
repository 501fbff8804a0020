import { afterEach, describe, expect, it } from "vitest";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openDatabase, type Db } from "../../core/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

const SECRETS = {
  ANTHROPIC_API_KEY: "sk-ant-VERYSECRET-111",
  DEEPSEEK_API_KEY: "sk-VERYSECRET-222",
  TELEGRAM_BOT_TOKEN: "123456:VERYSECRET-333",
  MATRIX_ACCESS_TOKEN: "syt_VERYSECRET-444",
};

describe("lilo settings", () => {
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });
  const setup = (env: Record<string, string> = {}) => {
    t = makeTestLilo(env);
    db = openDatabase(t.lilo.config.dbPath);
  };
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("shows run-time settings, configuration with its variables, and secrets only as set / not set", async () => {
    setup({ ...SECRETS, LILO_DIARY_TIME: "22:15", LILO_QUIET_HOURS: "22:30-07:00", MATRIX_HOMESERVER_URL: "http://127.0.0.1:1" });
    t.lilo.stores.settings.set("webhook_token", "VERYSECRET-555", "2025-01-01T00:00:00Z");
    const res = await runCli(open, ["settings"]);
    expect(res.code).toBe(0);
    expect(res.out).toContain("chat_model = anthropic:claude-sonnet-4-5");
    expect(res.out).toContain("diary.time = 22:15  (LILO_DIARY_TIME, set)");
    expect(res.out).toContain("diary.enabled = true  (LILO_DIARY_ENABLED, default)");
    expect(res.out).toContain("reflection.cron = 0 22 * * *  (LILO_REFLECTION_CRON, default)");
    expect(res.out).toContain("greeting.enabled = false  (LILO_GREETING_ENABLED, default)");
    expect(res.out).toContain("push.quiet_hours = 22:30-07:00  (LILO_QUIET_HOURS, set)");
    expect(res.out).toContain("ANTHROPIC_API_KEY: set");
    expect(res.out).toContain("OPENAI_API_KEY: not set");
    expect(res.out).toContain("TELEGRAM_BOT_TOKEN: set");
    expect(res.out).toContain("webhook_token [everyone] = (hidden)");

    const one = await runCli(open, ["settings", "ANTHROPIC_API_KEY"]);
    expect(one.out).toBe("ANTHROPIC_API_KEY: set");
    for (const r of [res, one]) {
      for (const secret of [...Object.values(SECRETS), "VERYSECRET"]) {
        expect(r.out).not.toContain(secret);
        expect(r.err).not.toContain(secret);
      }
    }
  });

  it("switches the chat model at run time; env values are read-only", async () => {
    setup({ ANTHROPIC_API_KEY: "sk-ant-x", DEEPSEEK_API_KEY: "sk-y" });
    const sw = await runCli(open, ["settings", "chat_model", "deepseek:deepseek-chat"]);
    expect(sw.code).toBe(0);
    expect(sw.out).toContain("chat_model = deepseek:deepseek-chat  (switched at run time");
    expect(t.lilo.stores.settings.get("chat_model")).toBe("deepseek:deepseek-chat");
    expect((await runCli(open, ["settings", "chat_model", "default"])).out).toContain("chat_model = anthropic:claude-sonnet-4-5");
    expect(t.lilo.stores.settings.get("chat_model")).toBeUndefined();

    const ro = await runCli(open, ["settings", "diary.time", "21:00"]);
    expect(ro.code).toBe(1);
    expect(ro.err).toContain("set LILO_DIARY_TIME in .env and restart");
    expect((await runCli(open, ["settings", "LILO_REFLECTION_CRON"])).out).toBe("reflection.cron = 0 22 * * *  (LILO_REFLECTION_CRON, default)");
    expect((await runCli(open, ["settings", "nope"])).err).toContain('unknown setting "nope"');
    expect((await runCli(open, ["settings", "ANTHROPIC_API_KEY", "sk-new"])).err).toContain("set ANTHROPIC_API_KEY in .env");
  });

  it("says so when no chat model is configured", async () => {
    setup();
    const res = await runCli(open, ["settings"]);
    expect(res.code).toBe(0);
    expect(res.out).toContain("chat_model = none configured");
  });
});
