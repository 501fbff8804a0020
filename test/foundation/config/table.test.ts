import { describe, expect, it } from "vitest";
import { OPENAI_COMPATIBLE_VENDORS, loadConfig } from "../../../core/foundation/config/config.ts";
import { formatModelSpec, splitModelSpec } from "../../../core/foundation/config/model-spec.ts";
import { envAt, getAt, LEAVES, leafOf } from "../../../core/foundation/config/table.ts";
import { LIVE_KEYS } from "../../../core/foundation/settings/live-settings.ts";
import { configTable } from "../../../core/foundation/config/table.ts";
import { ADAPTER_SECTIONS } from "../../../adapters/config.ts";

describe("the configuration table", () => {
  it("maps each variable to exactly one path of the configuration", () => {
    const envs = LEAVES.map((l) => l.env);
    expect(new Set(envs).size).toBe(envs.length);
    expect(envAt(["diary", "time"])).toBe("LILO_DIARY_TIME");
    expect(leafOf("LILO_NOTES_TOP_K")?.path).toEqual(["memory", "notesTopK"]);
    const c = loadConfig({});
    expect(getAt(c, leafOf("LILO_NOTES_TOP_K")!.path)).toBe(5);
  });

  it("knows the variables of every OpenAI-compatible vendor", () => {
    for (const [name, v] of Object.entries(OPENAI_COMPATIBLE_VENDORS)) {
      expect(leafOf(v.keyVar)?.path).toEqual(["providers", name, "apiKey"]);
      expect(leafOf(v.urlVar)?.path).toEqual(["providers", name, "baseUrl"]);
    }
  });

  it("marks the settings docs/spec.md §11 lets change while Lilo runs", () => {
    expect(LIVE_KEYS.map((k) => k.key)).toEqual([
      "streaming",
      "budget.day",
      "budget.month",
      "budget.fallback_model",
      "diary.enabled",
      "diary.time",
      "diary.ping",
      "reflection.enabled",
      "reflection.cron",
      "reflection.concern_ping",
      "greeting.enabled",
      "greeting.cron",
      "push.quiet_hours",
    ]);
    expect(
      configTable(ADAPTER_SECTIONS)
        .leaves.filter((l) => l.secret)
        .map((l) => l.env),
    ).toContain("TELEGRAM_BOT_TOKEN");
  });

  it("parses provider:model in one place: first colon, Ollama tags kept", () => {
    expect(splitModelSpec(" ollama:llama3.1:8b ")).toEqual({ provider: "ollama", name: "llama3.1:8b" });
    expect(splitModelSpec("gpt-4o")).toEqual({ provider: undefined, name: "gpt-4o" });
    expect(formatModelSpec({ provider: "deepseek", model: "deepseek-chat" })).toBe("deepseek:deepseek-chat");
    expect(loadConfig({ LILO_CHAT_MODEL: "ollama:llama3.1:8b" }).models.chat).toEqual({ provider: "ollama", model: "llama3.1:8b" });
  });

  it("reads the run settings (log level, .env path, stop and health) like every other variable", () => {
    expect(loadConfig({}).run).toEqual({
      logLevel: "info",
      logFormat: "text",
      logMaxMb: 10,
      shutdownGraceS: 10,
      healthPort: 0,
      healthHost: "127.0.0.1",
      envFile: ".env",
    });
    expect(() => loadConfig({ LILO_LOG_LEVEL: "verbose" })).toThrow(/LILO_LOG_LEVEL: use one of debug, info, warn, error, not "verbose"/);
    expect(() => loadConfig({ LILO_LOG_FORMAT: "xml" })).toThrow(/LILO_LOG_FORMAT: use text or json, not "xml"/);
    expect(() => loadConfig({ LILO_LOG_MAX_MB: "0" })).toThrow(/LILO_LOG_MAX_MB/);
  });
});
