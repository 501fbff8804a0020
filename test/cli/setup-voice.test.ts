import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedSetup } from "../../admin-cli/setup/scripted-setup.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.ts";

describe("lilo setup --yes: voice notes both ways", () => {
  let llm: FakeOpenAI;
  beforeAll(async () => void (llm = await startFakeOpenAI()));
  afterAll(() => llm.close());
  const place = (env: NodeJS.ProcessEnv) => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-setup-voice-"));
    return { envFile: join(dir, ".env"), env: { OPENAI_API_KEY: "sk-test", LILO_EMBEDDING_OFFLINE: "true", ...env }, folders: { embedding: dir, local: dir } };
  };
  const answers = () => ({ language: "en" as const, name: "Chris", model: "openai:gpt-4o-mini", baseUrl: llm.baseURL, timezone: "Europe/Berlin" });

  it("writes the speech endpoint beside the transcription endpoint, each with its key from the environment", async () => {
    const p = place({ LILO_TRANSCRIBE_API_KEY: "sk-stt", LILO_SPEECH_API_KEY: "sk-tts" });
    await scriptedSetup({ ...answers(), transcribeUrl: "https://api.groq.com/openai/v1", speechUrl: "http://127.0.0.1:8880/v1" }, p, () => undefined);
    const env = readFileSync(p.envFile, "utf8");
    expect(env).toContain("LILO_TRANSCRIBE_BASE_URL=https://api.groq.com/openai/v1\n");
    expect(env).toContain("LILO_TRANSCRIBE_API_KEY=sk-stt\n");
    expect(env).toContain("LILO_SPEECH_BASE_URL=http://127.0.0.1:8880/v1\n");
    expect(env).toContain("LILO_SPEECH_API_KEY=sk-tts\n");
  });

  it("refuses a speech endpoint that is not an address, naming the option", async () => {
    await expect(scriptedSetup({ ...answers(), speechUrl: "not a url" }, place({}), () => undefined)).rejects.toThrow(/^--speech-url: /);
  });
});
