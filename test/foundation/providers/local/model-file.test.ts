import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeServer, type FakeServer } from "../../../fakes/http-server.ts";
import { ensureModelFile, parseLocalModel } from "../../../../core/foundation/providers/local/model-file.ts";
import { LOCAL_MODELS, type DownloadStep } from "../../../../core/internal.ts";
import { DEFAULT_LOCAL_MODEL } from "../../../../core/foundation/providers/local/catalogue.ts";
import { loadConfig, ConfigError, ProviderError, type Logger } from "../../../../core/index.ts";
import { toChatHistory } from "../../../../core/foundation/providers/local/chat-history.ts";

let dir: string | undefined;
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("which file local:<name> runs", () => {
  it("a catalogue model comes from its pinned URL (here through LILO_LOCAL_MODEL_MIRROR), checked against the published bytes", async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-model-file-"));
    const body = Buffer.alloc(4096, 7);
    server = await startFakeServer((_req, res) => {
      res.writeHead(200, { "content-length": String(body.length) });
      res.end(body);
    });
    const lines: string[] = [];
    const logger: Logger = { debug() {}, info: (m) => void lines.push(m), warn() {}, error() {} };
    const entry = LOCAL_MODELS[0]!;
    const ref = parseLocalModel(entry.name, { dir, offline: false });
    const err = await ensureModelFile(ref, { dir, offline: false, mirror: server.url }, logger).catch((e: unknown) => e);
    // The same path as on Hugging Face, on the mirror's host.
    expect(server.requests[0]!.path).toBe(new URL(entry.url).pathname);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/does not match its checksum/);
    expect(existsSync(join(dir, entry.file))).toBe(false);
    // No listener: progress goes to the log, with the size.
    expect(lines[0]).toMatch(/downloading Lilo.s local model Qwen2.5 1.5B .* \(1\.0 GB\)/);
    expect(lines.some((l) => /of 1 MB|of 0 MB|: 0 of/.test(l))).toBe(true);
  });

  it("hands each step of a download to the listener, the last one finished even when the download fails", async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-model-file-"));
    const body = Buffer.alloc(4096, 7);
    server = await startFakeServer((_req, res) => {
      res.writeHead(200, { "content-length": String(body.length) });
      res.end(body);
    });
    const lines: string[] = [];
    const logger: Logger = { debug() {}, info: (m) => void lines.push(m), warn() {}, error() {} };
    const steps: DownloadStep[] = [];
    const entry = LOCAL_MODELS[0]!;
    const ref = parseLocalModel(entry.name, { dir, offline: false });
    await expect(ensureModelFile(ref, { dir, offline: false, mirror: server.url }, logger, (s) => void steps.push(s))).rejects.toThrow(/checksum/);
    expect(steps.at(-1)).toEqual({ file: entry.file, received: body.length, total: body.length, finished: true });
    expect(steps.slice(0, -1).every((s) => !s.finished && s.file === entry.file)).toBe(true);
    expect(lines.filter((l) => / of .* MB/.test(l))).toEqual([]);
  });

  it("a catalogue file already in the folder is used as it is, offline too", async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-model-file-"));
    const entry = LOCAL_MODELS[1]!;
    writeFileSync(join(dir, entry.file), "gguf");
    const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    expect(await ensureModelFile(parseLocalModel(entry.name, { dir, offline: true }), { dir, offline: true }, silent)).toBe(join(dir, entry.file));
  });

  it("an own .gguf must exist", async () => {
    dir = mkdtempSync(join(tmpdir(), "lilo-model-file-"));
    const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    const own = parseLocalModel("mine.gguf", { dir, offline: true });
    expect(own).toEqual({ kind: "file", path: join(dir, "mine.gguf") });
    await expect(ensureModelFile(own, { dir, offline: true }, silent)).rejects.toThrow(/does not exist/);
  });

  it("the configuration reads LILO_CHAT_MODEL=local as the smallest catalogue model", () => {
    expect(loadConfig({ LILO_CHAT_MODEL: "local" }).models.chat).toEqual({ provider: "local", model: DEFAULT_LOCAL_MODEL });
    expect(loadConfig({ LILO_EXTRACTION_MODEL: "local:llama3.2-3b" }).models.extraction).toEqual({ provider: "local", model: "llama3.2-3b" });
  });

  it("the configuration refuses an unknown local model at start", () => {
    expect(() => loadConfig({ LILO_CHAT_MODEL: "local:gpt-5" })).toThrow(ConfigError);
    expect(() => loadConfig({ LILO_CHAT_MODEL: "local:gpt-5" })).toThrow(/LILO_CHAT_MODEL: local:gpt-5 is neither one of Lilo's models \(qwen2\.5-1\.5b/);
  });

  it("the configuration derives the local model's folder and context from the data folder and budgets", () => {
    const c = loadConfig({ LILO_DATA_DIR: "/srv/lilo", LILO_REQUEST_BUDGET_TOKENS: "8000", LILO_MODEL_MAX_TOKENS: "1000" });
    expect(c.local).toMatchObject({ dir: "/srv/lilo/models", contextTokens: 9000, gpu: "auto", idleMinutes: 15, offline: false });
  });

  it("every catalogue entry is pinned to a revision, checked by sha256, German-speaking", () => {
    for (const m of LOCAL_MODELS) {
      expect(m.url).toMatch(new RegExp(`^https://huggingface\\.co/[^/]+/[^/]+/resolve/[0-9a-f]{40}/${m.file.replace(/\./g, "\\.")}$`));
      expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.languages).toContain("de");
      expect(m.sources.length).toBeGreaterThan(1);
    }
  });
});

describe("Lilo's messages as node-llama-cpp's chat history", () => {
  it("folds each native tool call with its result into the model's response", () => {
    const history = toChatHistory({
      system: "persona",
      messages: [
        { role: "user", content: "Wie wird das Wetter?" },
        { role: "assistant", content: "Ich schaue nach.", toolCalls: [{ id: "c1", name: "web_search", input: { query: "Wetter Köln" } }] },
        { role: "user", content: "", toolResults: [{ callId: "c1", content: "Sonne, 21 °C" }] },
      ],
    });
    expect(history).toEqual([
      { type: "system", text: "persona" },
      { type: "user", text: "Wie wird das Wetter?" },
      { type: "model", response: ["Ich schaue nach.", { type: "functionCall", name: "web_search", params: { query: "Wetter Köln" }, result: "Sonne, 21 °C" }] },
    ]);
  });

  it("turns what a text model cannot take (a picture, a result without its call) into text", () => {
    const history = toChatHistory({
      system: "",
      messages: [{ role: "user", content: "Schau mal", images: [{ mediaType: "image/png", data: "" }], toolResults: [{ callId: "old", content: "42" }] }],
    });
    expect(history).toEqual([{ type: "user", text: "[1 picture(s) attached; this model cannot see pictures]\nSchau mal\n[old] 42" }]);
  });
});
