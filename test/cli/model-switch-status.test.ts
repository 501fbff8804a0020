import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.ts";

describe("a model switched away from after it failed", () => {
  let t: TestLilo | undefined;
  let db: Db | undefined;
  let llm: FakeOpenAI | undefined;
  let models: string | undefined;
  afterEach(async () => {
    db?.close();
    await t?.cleanup();
    await llm?.close();
    if (models) rmSync(models, { recursive: true, force: true });
  });

  it("leaves lilo status and lilo settings, which show the model that answers now", async () => {
    llm = await startFakeOpenAI({ models: ["qwen2.5"] });
    llm.replyAlways(() => "Hallo!");
    // Lilo's own model without its file and without downloads: the first message fails on it.
    models = mkdtempSync(join(tmpdir(), "lilo-no-model-"));
    t = makeTestLilo({
      LILO_CHAT_MODEL: "local",
      LILO_LOCAL_OFFLINE: "true",
      LILO_LOCAL_MODEL_DIR: models,
      OPENAI_BASE_URL: llm.baseURL,
      LILO_USER_NAMES: "chris=Christian",
    });
    const failed = await t.lilo.handleMessage({ userId: "chris", text: "Hallo Lilo" });
    expect(failed.ok).toBe(false);
    db = openLiloDatabase(t.lilo.config);
    const open = (): Lilo => createLilo(t!.lilo.config, { embedder: t!.embedder, db: db!, clock: t!.lilo.clock });
    // Before the switch the failure is what status is for.
    expect((await runCli(open, ["status"])).out).toMatch(/model local:qwen2\.5-1\.5b .*last failure .*LILO_LOCAL_OFFLINE/);

    expect((await runCli(open, ["model", "openai:qwen2.5"])).out).toContain("chat model: openai:qwen2.5");
    const status = await runCli(open, ["status"]);
    expect(status.out).toContain("model openai:qwen2.5");
    expect(status.out).not.toContain("local:");
    const settings = await runCli(open, ["settings"]);
    expect(settings.out).toContain("chat_model = openai:qwen2.5");
    expect(settings.out).not.toContain("local:");
  });
});
