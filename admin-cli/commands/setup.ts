import { InvalidArgumentError, type Command } from "commander";
import type { CliIO } from "../context.ts";
import type { LocalModelOffer } from "../setup/model-choices.ts";
import type { ModelFolders } from "../setup/downloads.ts";
import { LOCAL_MODELS } from "../../core/internal.ts";

/** Lilo's own downloadable models (the local provider's catalogue), offered by the setup with their download size. */
export const LOCAL_MODEL_CATALOGUE: readonly LocalModelOffer[] = LOCAL_MODELS.map((m) => ({
  name: m.name,
  size: `${(m.sizeBytes / 1e9).toFixed(1)} GB`,
  licence: m.licence,
  entry: m,
}));

interface SetupFlags {
  language?: "de" | "en";
  name?: string;
  model?: string;
  baseUrl?: string;
  timezone?: string;
  telegramUser?: string;
  transcribeUrl?: string;
  speechUrl?: string;
  matrixUser?: string;
  offline?: boolean;
  yes?: boolean;
}

function parseLanguage(v: string): "de" | "en" {
  if (v === "de" || v === "en") return v;
  throw new InvalidArgumentError(`use de or en, not "${v}"`);
}

/**
 * `lilo setup`: asks language, name, model, Telegram, Matrix and time zone
 * and writes `.env` (0600) in Lilo's home; `--yes` takes the answers from
 * the options instead (keys and tokens from the environment).
 */
export function registerSetup(program: Command, io: CliIO): void {
  program
    .command("setup")
    .description("first-run setup: asks for language, your name, the model, Telegram/Matrix and the time zone, and writes .env (readable by you only)")
    .option("--language <de|en>", "Lilo's language", parseLanguage)
    .option("--name <name>", "what Lilo calls you")
    .option(
      "--model <provider:model>",
      "e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5 (its key from the environment, e.g. OPENAI_API_KEY), or local / local:<name> for Lilo's own model (downloaded by the setup)",
    )
    .option("--base-url <url>", "the provider's server, e.g. a local OpenAI-compatible server http://127.0.0.1:11434/v1")
    .option("--timezone <zone>", "IANA time zone (default: the system's)")
    .option("--telegram-user <id>", "your numeric Telegram id (the token from TELEGRAM_BOT_TOKEN)")
    .option("--matrix-user <id>", "your Matrix id (homeserver and token from MATRIX_HOMESERVER_URL, MATRIX_ACCESS_TOKEN)")
    .option("--transcribe-url <url>", "voice notes: an OpenAI-compatible /audio/transcriptions endpoint (key from LILO_TRANSCRIBE_API_KEY)")
    .option("--speech-url <url>", "voice replies: an OpenAI-compatible /audio/speech endpoint (key from LILO_SPEECH_API_KEY; docs/voice.md)")
    .option("--offline", "no internet: download nothing, say which model files to copy where, and write LILO_EMBEDDING_OFFLINE / LILO_LOCAL_OFFLINE")
    .option("-y, --yes", "ask nothing: take the answers from the options (for scripts and servers)")
    .action(async (o: SetupFlags) => {
      process.exitCode = await runSetupCommand(o, io);
    });
}

async function runSetupCommand(o: SetupFlags, io: CliIO): Promise<number> {
  const [{ describeError, loadConfigFromEnv }, { installDir, liloPlace }, setup, scripted] = await Promise.all([
    import("../../core/index.ts"),
    import("../../core/internal.ts"),
    import("../setup/run-setup.ts"),
    import("../setup/scripted-setup.ts"),
  ]);
  const install = installDir(import.meta.url);
  const { envFile, home } = liloPlace(process.env, install);
  const { folders, dbPath } = ((): { folders: ModelFolders; dbPath: string | undefined } => {
    try {
      // A copy of the environment: the setup must not take the old .env's values for its own.
      const config = loadConfigFromEnv({ ...process.env }, [], install);
      return { folders: { embedding: config.embedding.localDir, local: config.local.dir }, dbPath: config.dbPath };
    } catch {
      const models = `${home}/data/models`; // an unreadable .env is the setup's to replace: the default folders
      return { folders: { embedding: models, local: models }, dbPath: undefined };
    }
  })();
  const place = { envFile, env: process.env, catalogue: LOCAL_MODEL_CATALOGUE, folders, dbPath };
  try {
    if (o.yes) {
      if (!o.model) throw new Error("--yes needs at least --model (and --name, --language)");
      const written = await scripted.scriptedSetup(
        {
          language: o.language ?? setup.systemLanguage(process.env),
          name: o.name ?? "",
          model: o.model,
          ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
          ...(o.timezone ? { timezone: o.timezone } : {}),
          ...(o.telegramUser ? { telegramUser: o.telegramUser } : {}),
          ...(o.matrixUser ? { matrixUser: o.matrixUser } : {}),
          ...(o.offline ? { offline: true } : {}),
          ...(o.transcribeUrl ? { transcribeUrl: o.transcribeUrl } : {}),
          ...(o.speechUrl ? { speechUrl: o.speechUrl } : {}),
        },
        place,
        (line) => io.err(line),
      );
      io.out(`wrote ${written} (mode 0600); start Lilo with: npm start`);
      return 0;
    }
    if (!process.stdin.isTTY) {
      io.err(`error: lilo setup asks questions and needs a terminal; without one, pass the answers: ${SCRIPTED_EXAMPLE}`);
      return 1;
    }
    await setup.interactiveSetup({ input: process.stdin, output: process.stdout }, place);
    return 0;
  } catch (err) {
    io.err(`error: ${describeError(err)}`);
    return 1;
  }
}

/** The scripted form, as shown wherever no terminal can answer questions. */
export const SCRIPTED_EXAMPLE =
  "npx lilo setup --language en --name Sam --model openai:gpt-4o-mini --yes (OPENAI_API_KEY, ANTHROPIC_API_KEY or DEEPSEEK_API_KEY in the environment), " +
  "or --model openai:llama3.1 --base-url http://127.0.0.1:11434/v1 --yes (a server of your own), or --model local --yes (Lilo's own model; add --offline without internet)";
