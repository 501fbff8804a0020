import { afterEach, describe, expect, it, vi } from "vitest";
import { consoleLogger, silentLogger } from "../../core/index.ts";
import { startFakeOpenAI } from "../fakes/fake-openai.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { redactSecrets } from "../../core/foundation/util/redact.ts";
import { describeError } from "../../core/foundation/errors.ts";
import { runCli } from "../helpers/cli.ts";

const PASSWORD = "hunter2-very-secret";

describe("secrets never reach a log line, a chat answer or the CLI", () => {
  let t: TestLilo | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await t?.cleanup();
    t = undefined;
  });

  it("keeps a base URL's credentials out of everything a failed connection reports: log, chat, error", async () => {
    // A port that was just free: the connection is refused.
    const gone = await startFakeOpenAI();
    const port = new URL(gone.url).port;
    await gone.close();
    const baseUrl = `http://lilo-user:${PASSWORD}@127.0.0.1:${port}/v1`;
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    t = makeTestLilo(
      { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "sk-test-0123456789abcdef", LILO_CHAT_MODEL: "openai:gpt-test" },
      { logger: consoleLogger("debug") },
    );

    const result = await t.lilo.handleMessage({ userId: "chris", text: "Hallo?" });
    await t.lilo.idle();
    vi.restoreAllMocks();

    expect(result.ok).toBe(false);
    const everything = [result.text, result.error?.message ?? "", ...lines].join("\n");
    expect(lines.length).toBeGreaterThan(0);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain("lilo-user");
    expect(everything).not.toContain("sk-test-0123456789abcdef");
  });

  it("masks every secret shape it knows: URL credentials, bearer tokens, API keys, the Telegram token in Bot API URLs", () => {
    const cases: [string, string][] = [
      ["GET http://user:pw@host:8080/v1 failed", "GET http://***@host:8080/v1 failed"],
      ["POST https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage", "POST https://api.telegram.org/bot***/sendMessage"],
      ["Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer ***"],
      ["header Bearer abcdefghijkl", "header Bearer ***"],
      ["Incorrect API key provided: sk-proj-ABCDEF123456", "Incorrect API key provided: sk-***"],
      ["https://matrix.example/_matrix/client/v3/sync?access_token=syt_abc_def123", "https://matrix.example/_matrix/client/v3/sync?access_token=***"],
      ['{"api_key":"k-123456789"}', '{"api_key":"***"}'],
      ["nothing here: max_tokens 2048, tokens: 12", "nothing here: max_tokens 2048, tokens: 12"],
    ];
    for (const [input, expected] of cases) expect(redactSecrets(input)).toBe(expected);
    expect(describeError(new Error("connect to http://a:b@h failed"))).toBe("connect to http://***@h failed");
  });

  it("keeps secrets out of the CLI's error output", async () => {
    const failing = () => {
      throw new Error(`cannot reach http://admin:${PASSWORD}@127.0.0.1:6333 with key sk-live-abcdef123456`);
    };
    const r = await runCli(failing, ["doctor"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("cannot reach http://***@127.0.0.1:6333");
    expect(r.err).not.toContain(PASSWORD);
    expect(r.err).not.toContain("abcdef123456");
  });

  it("masks configured secrets by value wherever they appear", () => {
    t = makeTestLilo({ TELEGRAM_BOT_TOKEN: "777:short-but-configured", MATRIX_ACCESS_TOKEN: "plain-matrix-token-42" }, { logger: silentLogger });
    expect(redactSecrets("token 777:short-but-configured and plain-matrix-token-42")).toBe("token *** and ***");
  });
});
