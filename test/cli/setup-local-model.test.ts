import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_MODELS } from "../../core/internal.ts";
import { LOCAL_MODEL_CATALOGUE } from "../../admin-cli/commands/setup.ts";
import { modelChoices, type LocalModelOffer, type ModelChoice } from "../../admin-cli/setup/model-choices.ts";
import { interactiveSetup } from "../../admin-cli/setup/run-setup.ts";
import { tinyGgufBytes } from "../fixtures/tiny-gguf.ts";
import { startFakeServer, type FakeServer } from "../fakes/http-server.ts";

const run = promisify(execFile);
const BIN = join(process.cwd(), "admin-cli", "bin.js");
const DEFAULT = LOCAL_MODELS[0]!;

describe("lilo setup offers Lilo's own model", () => {
  it("offers the local provider's catalogue with each download size, writing local:<name>", async () => {
    expect(LOCAL_MODEL_CATALOGUE.map((m) => m.name)).toEqual(LOCAL_MODELS.map((m) => m.name));
    expect(LOCAL_MODEL_CATALOGUE[0]!.size).toMatch(/^\d+\.\d GB$/);
    const own = modelChoices(LOCAL_MODEL_CATALOGUE).find((c: ModelChoice) => c.name === "local");
    expect(own).toBeDefined();
    let offered: { name: string; label: string }[] = [];
    const asker = {
      choose: (_q: string, options: { name: string; label: string }[]) => {
        offered = options;
        return Promise.resolve(1);
      },
    };
    const lines = await own!.ask({ asker, t: { localModel: "Lilo's own model" }, current: {} } as unknown as Parameters<ModelChoice["ask"]>[0]);
    expect(offered[0]!.label).toContain(LOCAL_MODELS[0]!.licence);
    expect(lines).toEqual({ LILO_CHAT_MODEL: `local:${LOCAL_MODELS[1]!.name}` });
  });
});

/** A server holding `bytes` at every path; it answers a Range request with the rest (206), as Hugging Face does. */
function modelServer(bytes: Buffer): Promise<FakeServer> {
  return startFakeServer((req, res) => {
    const from = Number(/^bytes=(\d+)-$/.exec(String(req.headers.range ?? ""))?.[1] ?? 0);
    const rest = bytes.subarray(from);
    res.writeHead(from > 0 ? 206 : 200, {
      "content-length": String(rest.length),
      ...(from > 0 ? { "content-range": `bytes ${from}-${bytes.length - 1}/${bytes.length}` } : {}),
    });
    res.end(rest);
  });
}

describe("the setup downloads Lilo's own model before the first chat", () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "lilo-setup-local-"));
    return () => rmSync(home, { recursive: true, force: true });
  });

  it("fetches the chosen model with progress right after writing .env, continuing a part an earlier try left", async () => {
    const gguf = tinyGgufBytes();
    const server = await modelServer(gguf);
    try {
      // The catalogue's entry, but for a file the test can serve and check.
      const entry = { ...DEFAULT, file: "tiny.gguf", url: `${server.url}/tiny.gguf`, sha256: createHash("sha256").update(gguf).digest("hex") };
      const catalogue: LocalModelOffer[] = [{ name: DEFAULT.name, size: "0.0 GB", licence: DEFAULT.licence, entry }];
      const models = join(home, "data", "models");
      mkdirSync(join(models, "Xenova", "all-MiniLM-L6-v2", "onnx"), { recursive: true });
      writeFileSync(join(models, "Xenova", "all-MiniLM-L6-v2", "onnx", "model_quantized.onnx"), "");
      writeFileSync(join(models, "tiny.gguf.part"), gguf.subarray(0, 1000));
      const input = new PassThrough();
      const output = new PassThrough();
      let screen = "";
      output.on("data", (c) => (screen += String(c)));
      input.end(["2", "Sam", "5", "1", "n", "n", "UTC", "1", ""].join("\n"));
      const place = { envFile: join(home, ".env"), env: { LANG: "C" }, catalogue, folders: { embedding: models, local: models } };
      expect(await interactiveSetup({ input, output }, place)).toBe(join(home, ".env"));

      expect(screen).toContain(`Lilo's own model ${DEFAULT.name} (0.0 GB) as ${join(models, "tiny.gguf")}`);
      expect(screen.indexOf("Saved in")).toBeLessThan(screen.indexOf("Downloading Lilo's own model"));
      expect(screen).toMatch(/tiny\.gguf: 0 of 1 MB/); // the progress, a line per tenth without a terminal
      expect(screen).toContain(`✓ Downloaded and verified: ${join(models, "tiny.gguf")}`);
      expect(server.requests.map((r) => r.headers.range)).toEqual(["bytes=1000-"]);
      expect(readFileSync(join(models, "tiny.gguf")).equals(gguf)).toBe(true);
      expect(readFileSync(join(home, ".env"), "utf8")).toContain(`LILO_CHAT_MODEL=local:${DEFAULT.name}`);
    } finally {
      await server.close();
    }
  });
});

/** `lilo setup --yes` as a script runs it: the real command in its own process. */
describe("lilo setup --model local --yes", () => {
  let home: string;
  let mirror: FakeServer;
  beforeAll(async () => {
    // Bytes that are not the published model: a download from this mirror fails its checksum.
    mirror = await modelServer(Buffer.alloc(4096, 7));
  });
  afterAll(() => mirror.close());
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "lilo-setup-local-"));
    return () => rmSync(home, { recursive: true, force: true });
  });
  const setup = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [BIN, "setup", "--language", "en", "--name", "Sam", "--timezone", "UTC", ...args, "--yes"], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, LILO_HOME: home, LANG: "C", LILO_LOCAL_MODEL_MIRROR: mirror.url, ...env },
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it("takes a copied model file as it is and downloads nothing", async () => {
    const requests = mirror.requests.length;
    mkdirSync(join(home, "data", "models"), { recursive: true });
    writeFileSync(join(home, "data", "models", DEFAULT.file), tinyGgufBytes());
    const r = await setup(["--model", "local"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`wrote ${join(home, ".env")}`);
    expect(readFileSync(join(home, ".env"), "utf8")).toContain("LILO_CHAT_MODEL=local\n");
    expect(r.stderr).not.toContain("Lilo's own model");
    expect(mirror.requests.length).toBe(requests);
  }, 60_000);

  it("offline: says which .gguf to copy into which folder and writes LILO_LOCAL_OFFLINE", async () => {
    const own = LOCAL_MODELS[1]!;
    const r = await setup(["--model", `local:${own.name}`, "--offline"]);
    expect(r.code).toBe(0);
    const models = join(home, "data", "models");
    expect(r.stderr).toContain(`Copy ${own.file} (from ${own.url}) into the folder ${models}.`);
    expect(r.stderr).toContain("the embedding model Xenova/all-MiniLM-L6-v2 (≈ 25 MB)");
    const env = readFileSync(join(home, ".env"), "utf8");
    expect(env).toContain(`LILO_CHAT_MODEL=local:${own.name}`);
    expect(env).toContain("LILO_LOCAL_OFFLINE=true");
    expect(env).toContain("LILO_EMBEDDING_OFFLINE=true");
  }, 60_000);

  it("downloads the model in the setup; a failed download names the file to copy and where, with .env written", async () => {
    const r = await setup(["--model", `local:${DEFAULT.name}`]);
    expect(r.code).toBe(1);
    expect(mirror.requests.at(-1)!.path).toBe(new URL(DEFAULT.url).pathname);
    expect(r.stderr).toContain(`Downloading Lilo's own model ${DEFAULT.name}`);
    expect(r.stderr).toMatch(/The download failed: .*checksum/);
    expect(r.stderr).toContain(`Copy ${DEFAULT.file} (from ${DEFAULT.url}) into the folder ${join(home, "data", "models")}.`);
    expect(r.stderr).toContain("LILO_LOCAL_OFFLINE=true");
    expect(existsSync(join(home, ".env"))).toBe(true);
  }, 60_000);

  it("refuses a name that is neither a catalogue model nor a .gguf file, writing nothing", async () => {
    const r = await setup(["--model", "local:gpt-5"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("local:gpt-5 is neither one of Lilo's models");
    expect(existsSync(join(home, ".env"))).toBe(false);
  }, 60_000);
});
