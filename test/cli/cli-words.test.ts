import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLilo, EmbedderError, type Embedder, type Lilo } from "../../core/index.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";
import { pauseWords } from "../../core/background/greeting/pause.ts";
import { LOOKUP_TEXTS } from "../../core/conversation/prompts/lookups.ts";
import { WEB_TEXTS } from "../../adapters/telegram/web-command.ts";

/** An embedding model that cannot be loaded (offline, files missing). */
const unloadable: Embedder = {
  id: "Xenova/missing-model",
  dimension: () => Promise.reject(new EmbedderError('Embedding model "Xenova/missing-model" could not be loaded: fetch failed')),
  embed: () => Promise.reject(new EmbedderError('Embedding model "Xenova/missing-model" could not be loaded: fetch failed')),
};

/** The CLI's small words: typos, refusals before anything is opened, findings instead of refusals. */
describe("lilo: what a user reads after a mistake", () => {
  let t: TestLilo;
  let opened = 0;
  const open = (): Lilo => {
    opened++;
    return createLilo(t.lilo.config, { embedder: t.embedder, clock: t.lilo.clock });
  };
  beforeEach(() => {
    t = makeTestLilo();
    opened = 0;
  });
  afterEach(() => t.cleanup());

  it("a typo in a command, subcommand or option gets two lines: the suggestion, the usage", async () => {
    for (const [args, said, usage] of [
      [["memroy", "list"], "error: unknown command 'memroy'. Did you mean memory?", "usage: lilo [options] [command]  (lilo --help for more)"],
      [["memory", "lsit"], "error: unknown command 'lsit'. Did you mean list?", "usage: lilo memory [options] [command]  (lilo memory --help for more)"],
      [
        ["memory", "list", "--jsn"],
        "error: unknown option '--jsn'. Did you mean --json?",
        "usage: lilo memory list [options]  (lilo memory list --help for more)",
      ],
    ] as const) {
      const r = await runCli(open, [...args]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.err.split("\n"), args.join(" ")).toEqual([said, usage]);
    }
    expect(opened).toBe(0);
  });

  it("lilo preview '' is refused before Lilo (and her embedding model) is opened", async () => {
    for (const text of ["", "   "]) {
      const r = await runCli(open, ["preview", text]);
      expect(r).toMatchObject({ code: 1, out: "" });
      expect(r.err).toMatch(/^error: the message to preview is empty/);
    }
    expect(opened).toBe(0);
  });

  it("lilo doctor reports an embedding model that cannot be loaded as a finding (exit 2), in text or JSON", async () => {
    const openUnloadable = () => createLilo(t.lilo.config, { embedder: unloadable, clock: t.lilo.clock });
    const text = await runCli(openUnloadable, ["doctor"]);
    expect(text).toMatchObject({ code: 2, err: "" });
    expect(text.out).toBe('embedding model: Embedding model "Xenova/missing-model" could not be loaded: fetch failed');
    const json = await runCli(openUnloadable, ["doctor", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual({ embedder: { problem: 'Embedding model "Xenova/missing-model" could not be loaded: fetch failed' } });
  });
});

describe("small words: one of a thing is singular", () => {
  it("one of a unit is singular (1 Minute, 1 result, 1 minute) in the greeting's pause, the web search head, the /web link", () => {
    const now = new Date("2026-12-02T08:00:00Z");
    expect(pauseWords(new Date("2026-12-02T07:59:00Z"), now, "Europe/Berlin", "de")).toBe("1 Minute");
    expect(pauseWords(new Date("2026-12-02T07:59:00Z"), now, "Europe/Berlin", "en")).toBe("1 minute");
    expect(LOOKUP_TEXTS.en.searchHead(1)).toContain("1 result (");
    expect(LOOKUP_TEXTS.de.searchHead(1)).toMatch(/\b1 Treffer\b/);
    expect(WEB_TEXTS.de.link("https://x", 1)).toContain("gilt 1 Minute und");
    expect(WEB_TEXTS.en.link("https://x", 1)).toContain("valid for 1 minute and");
    expect(WEB_TEXTS.de.link("https://x", 15)).toContain("gilt 15 Minuten und");
  });
});
