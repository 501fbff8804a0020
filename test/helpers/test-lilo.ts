import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLilo, loadConfig, type Lilo, type LiloPorts } from "../../core/index.ts";
import { ControlledEmbedder } from "../fakes/controlled-embedder.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";

export interface TestLilo {
  lilo: Lilo;
  dir: string;
  embedder: ControlledEmbedder;
  cleanup(): Promise<void>;
}

/** The data key of every test Lilo (64 hex digits, as `lilo setup` makes them): the tests run on an encrypted database. */
export const TEST_DATA_KEY = "5e".repeat(32);

/**
 * A Lilo on a real SQLite file, encrypted with TEST_DATA_KEY, in a fresh temp dir, with an embedder whose
 * vectors the test controls and the embedded vector index. Its
 * configuration has the adapters' sections, as with `npm start`.
 */
export function makeTestLilo(env: Record<string, string> = {}, ports: LiloPorts = {}): TestLilo {
  const dir = mkdtempSync(join(tmpdir(), "lilo-test-"));
  const embedder = (ports.embedder as ControlledEmbedder | undefined) ?? new ControlledEmbedder(64);
  const config = loadConfig({ LILO_DATA_DIR: dir, LILO_MODEL_MAX_RETRIES: "0", LILO_DATA_KEY: TEST_DATA_KEY, ...env }, ADAPTER_SECTIONS);
  const lilo = createLilo(config, { embedder, ...ports });
  return {
    lilo,
    dir,
    embedder,
    cleanup: async () => {
      await lilo.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Is this request the extraction call (as opposed to the chat answer)? */
export const isExtraction = (system: string | undefined) => !!system?.includes("You extract memories");

/** The extraction answer that finds nothing. */
export const NO_EXTRACTION = JSON.stringify({ facts: [], content: [], profile: [], important: [] });

/** Variables for a Lilo whose chat model is a fake Anthropic server; the user "chris" is called Christian. */
export function fakeAnthropicEnv(fake: { baseURL: string }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: fake.baseURL,
    LILO_CHAT_MODEL: "anthropic:claude-test",
    LILO_USER_NAMES: "chris=Christian",
    ...extra,
  };
}
