import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../core/index.ts";
import { requireModel } from "../../../core/internal.ts";
import { thresholdsFor } from "../../../core/memory/thresholds.ts";
import { ADAPTER_SECTIONS } from "../../../adapters/config.ts";
import { TELEGRAM_SECTION, telegramConfig } from "../../../adapters/telegram/config.ts";
import { configTable } from "../../../core/foundation/config/table.ts";

describe("configuration", () => {
  it("has the seed's numbers as defaults", () => {
    const c = loadConfig({});
    expect(c.memory).toMatchObject({ notesTopK: 5, thoughtsTopK: 3, conversationPauseMinutes: 60, memoryBudgetTokens: 2000 });
    // Thresholds come from the embedder in use (core/memory/thresholds.ts) unless set explicitly.
    expect(c.memory.notesMinScore).toBeUndefined();
    expect(c.memory.dedupMinScore).toBeUndefined();
    expect(c.timezone).toBe("Europe/Berlin");
    expect(c.persona).toMatchObject({ name: "Lilo", language: "de" });
    // German by default, so the default embedding model understands German.
    expect(c.embedding.model).toBe("Xenova/paraphrase-multilingual-MiniLM-L12-v2");
    expect(loadConfig({ LILO_LANGUAGE: "en" }).embedding.model).toBe("Xenova/all-MiniLM-L6-v2");
    expect(loadConfig({ LILO_LANGUAGE: "en", LILO_EMBEDDING_MODEL: "Xenova/multilingual-e5-small" }).embedding.model).toBe("Xenova/multilingual-e5-small");
    expect(c.vector.backend).toBe("embedded");
    expect(c.vector.graphMinSize).toBe(2_000_000);
    expect(c.models.chat).toBeUndefined();
  });

  it("takes thresholds from the embedder's identity, explicit settings winning, exact-text only for an unknown one", () => {
    expect(thresholdsFor("Xenova/paraphrase-multilingual-MiniLM-L12-v2")).toEqual({ notesMinScore: 0.4, dedupMinScore: 0.88 });
    expect(thresholdsFor("Xenova/all-MiniLM-L6-v2")).toEqual({ notesMinScore: 0.3, dedupMinScore: 0.82 });
    expect(thresholdsFor("some/unmeasured-model").dedupMinScore).toBeUndefined();
    const c = loadConfig({ LILO_NOTES_MIN_SCORE: "0.35" });
    expect(thresholdsFor("Xenova/paraphrase-multilingual-MiniLM-L12-v2", c.memory)).toEqual({ notesMinScore: 0.35, dedupMinScore: 0.88 });
  });

  it("roles without a model of their own follow the chat model, picked from the configured provider", () => {
    const c = loadConfig({ DEEPSEEK_API_KEY: "x", LILO_DIARY_MODEL: "anthropic:claude-haiku" });
    expect(c.models.chat).toEqual({ provider: "deepseek", model: "deepseek-chat" });
    expect(c.models.extraction).toBeUndefined();
    expect(c.models.diary).toEqual({ provider: "anthropic", model: "claude-haiku" });
  });

  it("names the wrong variable", () => {
    expect(() => loadConfig({ LILO_NOTES_TOP_K: "viele" })).toThrow(/LILO_NOTES_TOP_K/);
    expect(() => loadConfig({ LILO_LANGUAGE: "fr" })).toThrow(/LILO_LANGUAGE/);
    expect(() => loadConfig({ LILO_CHAT_MODEL: "mistral:large" })).toThrow(/LILO_CHAT_MODEL: Unknown provider "mistral"/);
    expect(() => loadConfig({ LILO_CHAT_MODEL: "ollama" })).toThrow(/LILO_CHAT_MODEL: Name the model/);
    expect(() => loadConfig({ LILO_VECTOR_BACKEND: "qdrant" })).toThrow(/QDRANT_URL/);
    expect(() => loadConfig({ TELEGRAM_ALLOWED_USERS: "123=" }, ADAPTER_SECTIONS)).toThrow(ConfigError);
    // Zero would make every model call fail or every message a new conversation.
    expect(() => loadConfig({ LILO_MODEL_TIMEOUT_MS: "0" })).toThrow(/LILO_MODEL_TIMEOUT_MS/);
    expect(() => loadConfig({ LILO_MODEL_MAX_TOKENS: "0" })).toThrow(/LILO_MODEL_MAX_TOKENS/);
    expect(() => loadConfig({ LILO_CONVERSATION_PAUSE_MINUTES: "-5" })).toThrow(/LILO_CONVERSATION_PAUSE_MINUTES/);
  });

  it("explains how to configure a model", () => {
    expect(() => requireModel(loadConfig({}))).toThrow(/ANTHROPIC_API_KEY[\s\S]*DEEPSEEK_API_KEY[\s\S]*OPENAI_BASE_URL/);
  });

  it("maps allowlists to Lilo user ids", () => {
    const c = loadConfig({ TELEGRAM_ALLOWED_USERS: "111=chris, 222", MATRIX_ALLOWED_USERS: "@chris:example.org=chris" }, ADAPTER_SECTIONS);
    expect(c.telegram.allowedUsers).toEqual({ "111": "chris", "222": "telegram:222" });
    expect(c.matrix.allowedUsers).toEqual({ "@chris:example.org": "chris" });
  });

  it("reads the adapters' variables only through their sections, naming a wrong one like the core's", () => {
    expect(() => loadConfig({ TELEGRAM_ALLOWED_USERS: "123=" }, ADAPTER_SECTIONS)).toThrow(/TELEGRAM_ALLOWED_USERS: "123=" is not id or id=user/);
    expect(() => loadConfig({ MATRIX_ALLOWED_USERS: "=anna" }, ADAPTER_SECTIONS)).toThrow(/MATRIX_ALLOWED_USERS/);
    // Issues of the core and of a section are reported together.
    expect(() => loadConfig({ LILO_NOTES_TOP_K: "viele", TELEGRAM_WEBHOOK_URL: "no url", MATRIX_MAX_MESSAGE_CHARS: "5" }, ADAPTER_SECTIONS)).toThrow(
      /LILO_NOTES_TOP_K[\s\S]*TELEGRAM_WEBHOOK_URL[\s\S]*MATRIX_MAX_MESSAGE_CHARS/,
    );
    const core = loadConfig({ TELEGRAM_BOT_TOKEN: "123456:abc" });
    expect("telegram" in core).toBe(false);
    expect(() => telegramConfig(core)).toThrow(/loaded without its "telegram" section/);
    expect(telegramConfig(loadConfig({ TELEGRAM_BOT_TOKEN: "123456:abc" }, ADAPTER_SECTIONS))).toMatchObject({ token: "123456:abc", webhookPort: 8080 });
    expect(() => configTable([TELEGRAM_SECTION, TELEGRAM_SECTION])).toThrow(/"telegram" is there twice/);
  });
});
