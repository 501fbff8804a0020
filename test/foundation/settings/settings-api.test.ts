import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../../core/foundation/errors.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";

describe("lilo.settings", () => {
  let t: TestLilo;
  afterEach(async () => t.cleanup());

  it("lists live settings, program state, configuration and secrets from the table", () => {
    t = makeTestLilo({ ANTHROPIC_API_KEY: "sk-ant-x", LILO_DIARY_TIME: "22:15", LILO_FEEDS: "https://a.example/feed.xml" });
    const { live, config, secrets, state } = t.lilo.settings.list();
    expect(live[0]).toMatchObject({ kind: "chat-model", key: "chat_model", value: "anthropic:claude-sonnet-4-5", source: "default", live: true }); // LILO_CHAT_MODEL is not set: the model is chosen by default
    expect(live.find((r) => r.key === "diary.time")).toMatchObject({ env: "LILO_DIARY_TIME", value: "22:15", source: "env" });
    expect(config.find((r) => r.key === "feeds.count")).toMatchObject({ env: "LILO_FEEDS", value: "1", source: "env" });
    expect(config.find((r) => r.key === "tools.native")).toMatchObject({ value: "auto", source: "default" });
    expect(secrets.find((r) => r.env === "ANTHROPIC_API_KEY")?.value).toBe("set");
    expect(JSON.stringify(secrets)).not.toContain("sk-ant-x");
    expect(state).toEqual([]);
  });

  it("a live setting set at run time unsets back to its default", async () => {
    t = makeTestLilo();
    expect(await t.lilo.settings.set("diary.time", "21:30")).toMatchObject({ kind: "changed", row: { key: "diary.time", value: "21:30", source: "set" } });
    expect(t.lilo.config.diary.time).toBe("21:30");
    expect(await t.lilo.settings.unset("LILO_DIARY_TIME")).toMatchObject({ kind: "changed", row: { value: "23:45", source: "default" } });
  });

  it("refuses a bad value for a live setting", async () => {
    t = makeTestLilo();
    await expect(t.lilo.settings.set("greeting.cron", "0 99 * * *")).rejects.toThrow(ConfigError);
  });

  it("tells env-only and unknown keys apart", async () => {
    t = makeTestLilo();
    expect(await t.lilo.settings.set("timezone", "Europe/Paris")).toEqual({ kind: "env-only", key: "timezone", env: "LILO_TIMEZONE" });
    expect(await t.lilo.settings.set("nope", "1")).toEqual({ kind: "unknown", key: "nope" });
  });

  it("gets a setting nobody set with its default", () => {
    t = makeTestLilo();
    expect(t.lilo.settings.get("push.quiet_hours")).toMatchObject({ value: "none", source: "default" });
  });
});
