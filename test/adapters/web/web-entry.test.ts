import { PassThrough } from "node:stream";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLilo, loadConfig, silentLogger, type Lilo } from "../../../core/index.ts";
import { openLiloDatabase, type Db } from "../../../core/foundation/store/db.ts";
import { ADAPTER_SECTIONS } from "../../../adapters/config.ts";
import { createWebApp } from "../../../adapters/web/app.tsx";
import { registerWeb } from "../../../admin-cli/commands/web.ts";
import { runCli } from "../../helpers/cli.ts";
import { makeTestLilo, type TestLilo } from "../../helpers/test-lilo.ts";
import { CHRIS, messagesIn, startTelegramHarness, waitForMessages, type TelegramHarness } from "../telegram-harness.ts";

/** The ways in: `lilo web` (its first line is the login link), `lilo web --link`, and /web in Telegram. */
describe("Lilo's pages: lilo web and /web", () => {
  let t: TestLilo;
  let db: Db;
  // The CLI closes the Lilo it opens: each run gets its own on the same database file.
  const open =
    (env: Record<string, string> = {}) =>
    (): Lilo =>
      createLilo(loadConfig({ ...env, LILO_DATA_DIR: t.dir }, ADAPTER_SECTIONS), { embedder: t.embedder, db });

  beforeAll(() => {
    t = makeTestLilo();
    db = openLiloDatabase(t.lilo.config);
  });
  afterAll(async () => {
    db.close();
    await t.cleanup();
  });

  it("`lilo web` prints as its first line the operator's login link, which opens the pages", async () => {
    const lines: string[] = [];
    let printed!: () => void;
    const twoLines = new Promise<void>((r) => (printed = r));
    // The server runs until the test has used the link.
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const io = {
      out: (s: string) => {
        lines.push(s);
        if (lines.length === 2) printed();
      },
      err: (s: string) => lines.push(`ERR ${s}`),
      progressStream: new PassThrough(),
    };
    const program = new Command("lilo").exitOverride();
    registerWeb(program, open(), io, () => stopped);
    const run = program.parseAsync(["node", "lilo", "web", "--port", "0"]);
    await twoLines;
    const link = lines[0];
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\/[\w-]{43}$/);
    expect(lines[1]).toMatch(/^Lilo's pages: http:\/\/127\.0\.0\.1:\d+ .*10 minutes/);
    const token = link!.split("/login/")[1]!;
    const res = await fetch(`${new URL(link!).origin}/login`, { method: "POST", body: new URLSearchParams({ token }), redirect: "manual" });
    expect(res.status).toBe(303);
    const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
    const page = await fetch(`${new URL(link!).origin}/memories`, { headers: { cookie } });
    expect(page.status).toBe(200);
    // The operator chooses whose memories to see.
    expect(await page.text()).toContain('name="u"');
    stop();
    await run;
  });

  it("`lilo web` refuses an address other than loopback unless --host names it", async () => {
    const refused = await runCli(open({ LILO_WEB_HOST: "0.0.0.0" }), ["web", "--port", "0"]);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe("");
    expect(refused.err).toContain("--host 0.0.0.0");
  });

  it("`lilo web --link` prints a link for the pages the bot serves", async () => {
    const on = await runCli(open({ LILO_WEB_PORT: "8799" }), ["web", "--link", "--user", "chris"]);
    expect(on.code).toBe(0);
    expect(on.out).toMatch(/^http:\/\/127\.0\.0\.1:8799\/login\/[\w-]{43}$/);
    const token = on.out.split("/login/")[1]!;
    const r = t.lilo.webAccess.redeem(token, 1);
    expect(r.ok && r.owner).toBe("chris");
  });

  it("`lilo web --link` says so when the bot serves no pages", async () => {
    const off = await runCli(open(), ["web", "--link"]);
    expect(off.code).toBe(1);
    expect(off.err).toContain("LILO_WEB_PORT is 0");
  });

  describe("/web in Telegram", () => {
    let h: TelegramHarness;
    beforeAll(async () => {
      h = await startTelegramHarness({ env: { LILO_WEB_PORT: "8799", LILO_WEB_URL: "https://lilo.example.org/" } });
    });
    afterAll(() => h.stop());

    it("sends the user a one-time link that opens a session for their own memories", async () => {
      h.tg.pushMessage({ fromId: CHRIS, chatId: CHRIS, text: "/web" });
      const [msg] = await waitForMessages(h.tg, CHRIS, 1);
      const text = String(msg!.params.text);
      expect(text).toContain("Der Link gilt 10 Minuten");
      const link = /https:\/\/lilo\.example\.org\/login\/([\w-]{43})/.exec(text);
      expect(link).not.toBeNull();
      const app = createWebApp({ lilo: h.lilo, logger: silentLogger, sessionHours: 1 });
      const res = await app.request("/login", { method: "POST", body: new URLSearchParams({ token: link![1]! }) });
      expect(res.status).toBe(303);
      const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
      const page = await (await app.request("/memories", { headers: { cookie } })).text();
      expect(page).not.toContain('name="u"');
      expect(messagesIn(h.tg, CHRIS)).toHaveLength(1);
    });
  });
});
