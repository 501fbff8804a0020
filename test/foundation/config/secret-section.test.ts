import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { consoleLogger, createLilo, loadConfig, type ChatModel, type Lilo } from "../../../core/index.ts";
import { opt, setting as s, url } from "../../../core/foundation/config/rules.ts";
import { configSection } from "../../../core/foundation/config/section.ts";
import { configSecrets } from "../../../core/foundation/config/secrets.ts";
import { renderEnvExample } from "../../../core/foundation/config/env-example.ts";
import { ControlledEmbedder } from "../../fakes/controlled-embedder.ts";
import { openLiloDatabase } from "../../../core/foundation/store/db.ts";
import { SettingsStore } from "../../../core/foundation/store/settings.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A section a test registers, as an adapter would: one leaf marked only `secret: true`, one URL, one plain value. */
const PAGER = configSection({
  key: "pager",
  groups: { pager: { title: "Pager (a test section)" } },
  schema: z.object({
    apiKey: s(opt(), { env: "PAGER_API_KEY", doc: "", group: "pager", secret: true }),
    endpoint: s(url(), { env: "PAGER_ENDPOINT", doc: "", group: "pager" }),
    room: s(opt(), { env: "PAGER_ROOM", doc: "", group: "pager" }),
  }),
});

// No shape of redact.ts matches these: only the table can know they are secret.
const KEY = "pgr-4e1f9c22d07b";
const URL_PASSWORD = "pw-9d31a7c5e0";
const URL_TOKEN = "tk-0b6e2f84aa13";
const ROOM = "room-5c7d1e93b2";

describe("a leaf marked only `secret: true` in a registered section", () => {
  let dir: string | undefined;
  const lilos: Lilo[] = [];
  afterEach(async () => {
    for (const l of lilos.splice(0)) await l.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A Lilo read with the pager section, whose chat model fails with a message naming `leak`. */
  const open = (env: Record<string, string>, leak: string, lines: string[]) => {
    dir ??= mkdtempSync(join(tmpdir(), "lilo-secret-section-"));
    const config = loadConfig({ LILO_DATA_DIR: dir, ...env }, [PAGER]);
    const failing: ChatModel = {
      provider: "anthropic",
      model: "claude-test",
      complete: async () => {
        throw new Error(`upstream said: ${leak} is not accepted`);
      },
    };
    const lilo = createLilo(config, { embedder: new ControlledEmbedder(64), chatModel: failing, logger: consoleLogger("debug", (l) => void lines.push(l)) });
    lilos.push(lilo);
    return lilo;
  };

  it("is derived from the section's own table alone: secret list, .env.example, validation", () => {
    const config = loadConfig({ PAGER_API_KEY: KEY, PAGER_ENDPOINT: `https://bot:${URL_PASSWORD}@pager.example/v1?token=${URL_TOKEN}`, PAGER_ROOM: ROOM }, [
      PAGER,
    ]);
    const secrets = configSecrets(config);
    expect(secrets).toEqual(expect.arrayContaining([KEY, URL_PASSWORD, "bot", URL_TOKEN]));
    expect(secrets).not.toContain(ROOM);
    expect(config.pager.room).toBe(ROOM);
    expect(renderEnvExample([PAGER])).toContain("# ── Pager (a test section) ─");
    expect(() => loadConfig({ PAGER_ENDPOINT: "not a url" }, [PAGER])).toThrow(/PAGER_ENDPOINT/);
  });

  it("comes out masked wherever an error shows it", async () => {
    const lines: string[] = [];
    const lilo = open({ PAGER_API_KEY: KEY, PAGER_ROOM: ROOM }, `${KEY} in ${ROOM}`, lines);
    const r = await lilo.handleMessage({ userId: "chris", text: "Hallo?" });
    await lilo.idle();
    const everything = [r.text, r.error?.message ?? "", ...lines].join("\n");
    expect(r.ok).toBe(false);
    expect(everything).toContain("***");
    expect(everything).not.toContain(KEY);
    // The plain leaf is not a secret: the same error still names it, so the mask comes from the flag alone.
    expect(everything).toContain(ROOM);
  });

  it("is listed by `lilo settings` as set / not set, never with its value", async () => {
    const set = open({ PAGER_API_KEY: KEY }, "x", []);
    expect(set.settings.list().secrets.find((r) => r.env === "PAGER_API_KEY")).toMatchObject({ value: "set", source: "env" });
    expect(set.settings.get("PAGER_API_KEY")?.value).toBe("set");
    // Program state that happens to hold the secret is masked by value too.
    const db = openLiloDatabase(set.config);
    new SettingsStore(db).set("pager.last_call", `called with ${KEY}`, "2025-01-01T00:00:00Z");
    db.close();
    expect(set.settings.list().state).toEqual([{ key: "pager.last_call", userId: undefined, value: "called with ***" }]);
    expect(JSON.stringify(set.settings.list())).not.toContain(KEY);
    expect(await set.settings.set("PAGER_API_KEY", "other")).toEqual({ kind: "env-only", key: "PAGER_API_KEY", env: "PAGER_API_KEY" });
    const unset = open({}, "x", []);
    expect(unset.settings.list().secrets.find((r) => r.env === "PAGER_API_KEY")).toMatchObject({ value: "not set", source: "default" });
  });
});
