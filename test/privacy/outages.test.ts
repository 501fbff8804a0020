import { afterEach, describe, expect, it } from "vitest";
import { MemoryStorageProvider } from "matrix-bot-sdk";
import { createLilo, loadConfig, type Logger } from "../../core/index.ts";
import { createTelegramBot } from "../../adapters/telegram/bot.ts";
import { startMatrix } from "../../adapters/matrix/bot.ts";
import { sdkInfo } from "../../adapters/matrix/client.ts";
import { startFakeTelegram, type FakeTelegram } from "../fakes/fake-telegram.ts";
import { startFakeMatrix, type FakeMatrix } from "../fakes/fake-matrix.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { ControlledEmbedder } from "../fakes/controlled-embedder.ts";
import { makeTestLilo, TEST_DATA_KEY, type TestLilo } from "../helpers/test-lilo.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";
import { runCli } from "../helpers/cli.ts";

type Line = { level: string; msg: string; data?: Record<string, unknown> };
function capturingLogger(lines: Line[]): Logger {
  const at = (level: string) => (msg: string, data?: Record<string, unknown>) => void lines.push({ level, msg, ...(data ? { data } : {}) });
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe("outages are visible: warned with their retry delay, last contact in `lilo status`", () => {
  let t: TestLilo | undefined;
  let tg: FakeTelegram | undefined;
  let hs: FakeMatrix | undefined;
  let model: FakeAnthropic | undefined;
  afterEach(async () => {
    await t?.cleanup();
    await tg?.close();
    await hs?.close();
    await model?.close();
    t = tg = hs = model = undefined;
  });

  it("an unreachable Telegram shows: a warning per failed attempt with the wait before the next, the last contact in lilo status", async () => {
    tg = await startFakeTelegram();
    model = await startFakeAnthropic();
    model.fail(401, 1, {}, "invalid x-api-key");
    const env = {
      TELEGRAM_BOT_TOKEN: tg.token,
      TELEGRAM_API_ROOT: tg.url,
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: model.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
    };
    t = makeTestLilo(env);
    const lines: Line[] = [];
    const waits: number[] = [];
    const { bot } = createTelegramBot(t.lilo, capturingLogger(lines), {
      token: tg.token,
      apiRoot: tg.url,
      allowedUsers: {},
      sleep: async (ms) => void waits.push(ms),
      random: () => 0.999999,
    });

    tg.unreachable(3);
    await bot.api.sendMessage(111, "Hallo");
    expect(tg.calls("sendMessage")).toHaveLength(1);
    const warns = lines.filter((l) => l.level === "warn");
    expect(warns.map((l) => [l.msg, l.data?.retryInSeconds])).toEqual([
      ["telegram unreachable, retrying", 1],
      ["telegram unreachable, retrying", 2],
      ["telegram unreachable, retrying", 4],
    ]);
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    expect(lines.some((l) => l.level === "info" && l.msg === "telegram reachable again")).toBe(true);
    // The model is refused once: the server was reached, but the call failed.
    expect((await t.lilo.handleMessage({ userId: "owner", text: "Hallo" })).ok).toBe(false);

    const contacts = t.lilo.contacts.list();
    expect(contacts.map((c) => c.name)).toEqual(["model anthropic:claude-test", "telegram"]);
    expect(contacts[1]!.lastOkAt! >= contacts[1]!.lastFailureAt!).toBe(true);

    const open = () =>
      createLilo(loadConfig({ LILO_DATA_DIR: t!.dir, LILO_DATA_KEY: TEST_DATA_KEY, ...env }, ADAPTER_SECTIONS), { embedder: new ControlledEmbedder(64) });
    const status = await runCli(open, ["status"]);
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/^telegram\s+last contact \d{4}-\d\d-\d\d \d\d:\d\d \(\d+ s ago\); last failure .*\/bot\*\*\*\/sendMessage failed/m);
    expect(status.out).not.toContain(tg.token);
    expect(status.out).toMatch(/^model anthropic:claude-test\s+last contact .*; last failure .*invalid x-api-key/m);
    const json = JSON.parse((await runCli(open, ["status", "--json"])).out) as { name: string }[];
    expect(json.map((r) => r.name)).toEqual(["model anthropic:claude-test", "telegram"]);
  });

  it("records the Matrix homeserver's last sync as its last contact", async () => {
    hs = await startFakeMatrix({ accessToken: "mx" });
    t = makeTestLilo({ MATRIX_HOMESERVER_URL: hs.url, MATRIX_ACCESS_TOKEN: "mx", MATRIX_ALLOWED_USERS: "@chris:fake=chris" });
    const bot = await startMatrix(t.lilo, capturingLogger([]), { storage: new MemoryStorageProvider() });
    await hs.waitFor(() => t!.lilo.contacts.list().some((c) => c.name === "matrix" && !!c.lastOkAt));
    await bot.stop();
  });

  it("warns, with the wait, when the Matrix SDK backs off", () => {
    const lines: Line[] = [];
    sdkInfo(capturingLogger(lines), "MatrixClientLite", "Backing off for 7312.5ms");
    sdkInfo(capturingLogger(lines), "MatrixClientLite", "Client stop requested");
    expect(lines).toEqual([
      { level: "warn", msg: "matrix homeserver unreachable, retrying", data: { retryInSeconds: 7.3 } },
      { level: "debug", msg: "matrix-sdk MatrixClientLite: Client stop requested" },
    ]);
  });
});
