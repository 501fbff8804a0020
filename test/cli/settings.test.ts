import { afterEach, describe, expect, it } from "vitest";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { SettingsStore } from "../../core/foundation/store/settings.ts";

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
    db = openLiloDatabase(t.lilo.config);
  };
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  it("shows every setting with its variable and source, a secret only as set or not set", async () => {
    setup({ ...SECRETS, LILO_DIARY_TIME: "22:15", LILO_QUIET_HOURS: "22:30-07:00", MATRIX_HOMESERVER_URL: "http://127.0.0.1:1" });
    new SettingsStore(db).set("webhook_token", "VERYSECRET-555", "2025-01-01T00:00:00Z");
    const res = await runCli(open, ["settings"]);
    expect(res.code).toBe(0);
    expect(res.out).toContain("chat_model = anthropic:claude-sonnet-4-5");
    expect(res.out).toContain("diary.time = 22:15  (LILO_DIARY_TIME, env)");
    expect(res.out).toContain("diary.enabled = true  (LILO_DIARY_ENABLED, default)");
    expect(res.out).toContain("reflection.cron = 0 22 * * *  (LILO_REFLECTION_CRON, default)");
    expect(res.out).toContain("greeting.enabled = false  (LILO_GREETING_ENABLED, default)");
    expect(res.out).toContain("push.quiet_hours = 22:30-07:00  (LILO_QUIET_HOURS, env)");
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

  it("switches the chat model at run time, until set back to default", async () => {
    setup({ ANTHROPIC_API_KEY: "sk-ant-x", DEEPSEEK_API_KEY: "sk-y" });
    const sw = await runCli(open, ["settings", "chat_model", "deepseek:deepseek-chat"]);
    expect(sw.code).toBe(0);
    expect(sw.out).toContain("chat_model = deepseek:deepseek-chat  (switched at run time");
    expect(new SettingsStore(db).get("chat_model")).toBe("deepseek:deepseek-chat");
    expect((await runCli(open, ["settings", "chat_model", "default"])).out).toContain("chat_model = anthropic:claude-sonnet-4-5");
    expect(new SettingsStore(db).get("chat_model")).toBeUndefined();
  });

  it("refuses to change at run time what only .env sets, naming the variable", async () => {
    setup({ ANTHROPIC_API_KEY: "sk-ant-x", DEEPSEEK_API_KEY: "sk-y" });
    const ro = await runCli(open, ["settings", "set", "timezone", "Europe/Paris"]);
    expect(ro.code).toBe(1);
    expect(ro.err).toContain("set LILO_TIMEZONE in .env and restart");
    expect((await runCli(open, ["settings", "ANTHROPIC_API_KEY", "sk-new"])).err).toContain("set ANTHROPIC_API_KEY in .env");
  });

  it("finds a setting by its .env name, refusing an unknown name", async () => {
    setup({ ANTHROPIC_API_KEY: "sk-ant-x", DEEPSEEK_API_KEY: "sk-y" });
    expect((await runCli(open, ["settings", "LILO_REFLECTION_CRON"])).out).toBe("reflection.cron = 0 22 * * *  (LILO_REFLECTION_CRON, default)");
    expect((await runCli(open, ["settings", "nope"])).err).toContain('unknown setting "nope"');
  });

  it("tracks each live setting's source through set and unset: default, env, set", async () => {
    setup({ LILO_DIARY_TIME: "22:15" });
    const set = await runCli(open, ["settings", "set", "diary.time", "21:30"]);
    expect(set).toMatchObject({ code: 0, err: "" });
    expect(set.out).toContain("diary.time = 21:30  (set;");
    // No bot runs here: nothing "follows within 5 s".
    expect(set.out).toContain("Lilo uses it from her next start");
    expect(new SettingsStore(db).get("diary.time")).toBe("21:30");
    expect((await runCli(open, ["settings", "set", "LILO_QUIET_HOURS", "22:00-7:00"])).out).toContain("push.quiet_hours = 22:00-07:00");
    expect((await runCli(open, ["settings", "greeting.enabled", "on"])).out).toContain("greeting.enabled = true  (set;");
    await runCli(open, ["settings", "set", "reflection.cron", "0 * * * *"]);

    const list = await runCli(open, ["settings"]);
    expect(list.out).toContain("diary.time = 21:30  (LILO_DIARY_TIME, set)");
    expect(list.out).toContain("diary.enabled = true  (LILO_DIARY_ENABLED, default)");
    expect(list.out).toContain("push.quiet_hours = 22:00-07:00  (LILO_QUIET_HOURS, set)");
    expect(list.out).toContain("reflection.cron = 0 * * * *  (LILO_REFLECTION_CRON, set)");
    expect(list.out).not.toContain("program state"); // live keys are not listed twice
    const json = JSON.parse((await runCli(open, ["settings", "--json"])).out) as { key: string; value: string; source: string; live: boolean }[];
    expect(json.find((r) => r.key === "diary.time")).toEqual({ key: "diary.time", env: "LILO_DIARY_TIME", value: "21:30", source: "set", live: true });
    expect(json.find((r) => r.key === "diary.ping")).toMatchObject({ value: "true", source: "default" });
    expect(json.find((r) => r.key === "timezone")).toMatchObject({ live: false });
    expect(json.find((r) => r.key === "chat_model")).toMatchObject({ live: true });

    // Unset goes back to .env (env source), then to the default when .env has nothing.
    expect((await runCli(open, ["settings", "unset", "diary.time"])).out).toContain("diary.time = 22:15  (env;");
    expect(new SettingsStore(db).get("diary.time")).toBeUndefined();
    expect((await runCli(open, ["settings", "unset", "push.quiet_hours"])).out).toContain("push.quiet_hours = none  (default;");
    // A freshly opened Lilo reads the stored values into its configuration.
    const fresh = open();
    expect(fresh.config.reflection.cron).toBe("0 * * * *");
    expect(fresh.config.greeting.enabled).toBe(true);
    expect(fresh.config.push.quietHours).toBeUndefined();
    await fresh.close();
    expect(t.lilo.config.reflection.cron).toBe("0 22 * * *"); // the shared configuration object is never changed
  });

  it("names as source whether a variable was given, not whether its value differs: env for a default repeated in .env, default for an unset one", async () => {
    const given = { LILO_DIARY_ENABLED: "true", LILO_TIMEZONE: "Europe/Berlin", LILO_LANGUAGE: "de", ANTHROPIC_API_KEY: "sk-ant-x" };
    setup(given);
    const json = JSON.parse((await runCli(open, ["settings", "--json"])).out) as { env: string; source: string }[];
    expect(json.find((r) => r.env === "LILO_DIARY_ENABLED")).toMatchObject({ source: "env" });
    expect(json.find((r) => r.env === "LILO_CHAT_MODEL")).toMatchObject({ source: "default" });
    // Every row: env exactly when the variable was given (makeTestLilo gives LILO_DATA_DIR, LILO_MODEL_MAX_RETRIES and LILO_DATA_KEY too).
    const names = new Set([...Object.keys(given), "LILO_DATA_DIR", "LILO_MODEL_MAX_RETRIES", "LILO_DATA_KEY"]);
    for (const r of json) expect(`${r.env}: ${r.source}`).toBe(`${r.env}: ${names.has(r.env) ? "env" : "default"}`);
    const text = (await runCli(open, ["settings"])).out;
    expect(text).toContain("diary.enabled = true  (LILO_DIARY_ENABLED, env)");
    expect((await runCli(open, ["settings", "diary.enabled"])).out).toBe("diary.enabled = true  (LILO_DIARY_ENABLED, env)");
  });

  it("refuses an invalid value with the .env rule's message, storing nothing", async () => {
    setup();
    const cases: [string, string, string][] = [
      ["diary.time", "25:00", 'error: "25:00" is not valid for LILO_DIARY_TIME: use HH:MM, e.g. 23:45'],
      ["diary.enabled", "vielleicht", "is not valid for LILO_DIARY_ENABLED"],
      ["reflection.cron", "0 99 * * *", "is not valid for LILO_REFLECTION_CRON: not a cron pattern"],
      ["greeting.cron", "daily", "a cron pattern of 5 or 6 fields"],
      ["push.quiet_hours", "22-7", 'LILO_QUIET_HOURS: "22-7" is not a time window like 22:30-07:00'],
    ];
    for (const [key, value, message] of cases) {
      const res = await runCli(open, ["settings", "set", key, value]);
      expect(res.code, key).toBe(1);
      expect(res.err).toContain(message);
      expect(new SettingsStore(db).get(key)).toBeUndefined();
    }
    expect((await runCli(open, ["settings", "set", "diary.time"])).err).toContain("usage: lilo settings set KEY VALUE");
    expect((await runCli(open, ["settings", "set", "nope", "1"])).err).toContain('unknown setting "nope"');
    expect(db.prepare("SELECT COUNT(*) AS n FROM settings").get()).toEqual({ n: 0 });
  });

  it("ignores a stored value that no longer passes its rule (logged once) until unset removes it", async () => {
    setup();
    new SettingsStore(db).set("diary.time", "24:99", "2025-01-01T00:00:00Z");
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => void errors.push(m) };
    const lilo = createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock, logger });
    expect(lilo.config.diary.time).toBe("23:45");
    lilo.live.refresh();
    expect(errors).toEqual(["stored setting ignored: it does not pass its rule; `lilo settings unset` removes it"]);
    expect((await runCli(open, ["settings", "unset", "diary.time"])).code).toBe(0);
    expect(new SettingsStore(db).get("diary.time")).toBeUndefined();
  });

  it("says so when no chat model is configured", async () => {
    setup();
    const res = await runCli(open, ["settings"]);
    expect(res.code).toBe(0);
    expect(res.out).toContain("chat_model = none configured");
  });
});
