import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHRIS, gate, startTelegramHarness, waitForMessages, type TelegramHarness } from "./telegram-harness.ts";
import { readDb } from "../helpers/read-db.ts";
import { loadConfig } from "../../core/index.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";
import { telegramConfig } from "../../adapters/telegram/config.ts";

describe("Telegram adapter: webhook mode", () => {
  let h: TelegramHarness;
  beforeEach(async () => {
    h = await startTelegramHarness({ env: { TELEGRAM_WEBHOOK_URL: "https://lilo.example.invalid/telegram", TELEGRAM_WEBHOOK_PORT: "0" } });
  });
  afterEach(async () => {
    await h.stop();
  });

  const post = (update: unknown, secret: string | undefined) =>
    fetch(`http://127.0.0.1:${h.adapter.webhookPort}/telegram`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}) },
      body: JSON.stringify(update),
    });

  it("registers the webhook with a secret, answering Telegram's request before the model has answered", async () => {
    expect(h.tg.webhook?.url).toBe("https://lilo.example.invalid/telegram");
    const secret = h.tg.webhook!.secretToken!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    expect(h.tg.sent.some((c) => c.method === "deleteWebhook")).toBe(false);

    const hold = gate();
    h.answer = async (text) => {
      if (text === "eins") await hold.promise;
      return `Antwort ${text}`;
    };
    // Both requests are answered while the first turn is still waiting for the model.
    expect((await post(h.tg.messageUpdate({ fromId: CHRIS, chatId: CHRIS, text: "eins" }), secret)).status).toBe(200);
    expect((await post(h.tg.messageUpdate({ fromId: CHRIS, chatId: CHRIS, text: "zwei" }), secret)).status).toBe(200);
    expect(h.tg.calls("sendMessage")).toHaveLength(0);
    hold.open();
    const answers = await waitForMessages(h.tg, CHRIS, 2);
    expect(answers.map((a) => a.params.text)).toEqual(["Antwort eins", "Antwort zwei"]);
  });

  it("refuses calls without Telegram's secret", async () => {
    const res = await post(h.tg.messageUpdate({ fromId: CHRIS, chatId: CHRIS, text: "gefälscht" }), "wrong");
    expect(res.status).toBe(401);
    expect((await post(h.tg.messageUpdate({ fromId: CHRIS, chatId: CHRIS, text: "ohne" }), undefined)).status).toBe(401);
    expect(readDb(h.lilo).get("SELECT count(*) AS n FROM messages")).toEqual({ n: 0 });
    expect(h.anthropic.requests).toHaveLength(0);
  });
});

describe("Telegram adapter: where the webhook listens", () => {
  let h: TelegramHarness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });
  const webhookEnv = { TELEGRAM_WEBHOOK_URL: "https://lilo.example.invalid/telegram", TELEGRAM_WEBHOOK_PORT: "0" };

  it("binds to 127.0.0.1 by default: only a reverse proxy on this machine reaches it", async () => {
    h = await startTelegramHarness({ env: webhookEnv });
    expect(h.adapter.webhookAddress).toBe("127.0.0.1");
    expect(telegramConfig(h.lilo.config).webhookHost).toBe("127.0.0.1");
  });

  it("binds to TELEGRAM_WEBHOOK_HOST when it is set (here every interface), answering there", async () => {
    h = await startTelegramHarness({ env: { ...webhookEnv, TELEGRAM_WEBHOOK_HOST: "0.0.0.0" } });
    expect(h.adapter.webhookAddress).toBe("0.0.0.0");
    const secret = h.tg.webhook!.secretToken!;
    const res = await fetch(`http://127.0.0.1:${h.adapter.webhookPort}/telegram`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
      body: JSON.stringify(h.tg.messageUpdate({ fromId: CHRIS, chatId: CHRIS, text: "Hallo" })),
    });
    expect(res.status).toBe(200);
    expect((await waitForMessages(h.tg, CHRIS, 1))[0]!.params.text).toBe("Hallo!");
  });

  it("refuses a TELEGRAM_WEBHOOK_HOST that is no address", () => {
    expect(() => loadConfig({ TELEGRAM_WEBHOOK_HOST: "http://0.0.0.0:80" }, ADAPTER_SECTIONS)).toThrow(/TELEGRAM_WEBHOOK_HOST/);
    expect(telegramConfig(loadConfig({ TELEGRAM_WEBHOOK_HOST: "::1" }, ADAPTER_SECTIONS)).webhookHost).toBe("::1");
  });
});
