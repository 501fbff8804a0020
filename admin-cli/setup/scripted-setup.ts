/**
 * `lilo setup --yes`: the setup's checks without questions, for scripts and
 * servers. Keys and tokens come from the environment, never from the command
 * line; the first problem stops it before anything is written.
 */
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { listModels, localModelProblem, OPENAI_COMPATIBLE_VENDORS } from "../../core/internal.ts";
import { check, checkName, checkWhole, ownerId, systemTimeZone, type SetupPlace } from "./answers.ts";
import { matrixWhoami, telegramBotName } from "./checks.ts";
import { fetchOwnModel, missingFiles, missingLines, offlineWay, offlineWritten } from "./downloads.ts";
import { writeEnvFile } from "./env-file.ts";
import { dataKeyStep } from "./data-key.ts";
import { notOffered, settingsFor, type EnvLines } from "./model-choices.ts";
import { setupTexts } from "./texts.ts";

/** The answers of `lilo setup --yes`; keys and tokens come from the environment, never from the command line. */
export interface ScriptedAnswers {
  language: "de" | "en";
  name: string;
  /** provider:model, or `local` / `local:<name or file.gguf>` for Lilo's own model. */
  model: string;
  baseUrl?: string;
  timezone?: string;
  /** Your Telegram id (needs TELEGRAM_BOT_TOKEN in the environment). */
  telegramUser?: string;
  /** Your Matrix id (needs MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN in the environment). */
  matrixUser?: string;
  /** No internet: download nothing, say what to copy where, and write the switches that keep Lilo from downloading. */
  offline?: boolean;
  /** Voice notes in: an OpenAI-compatible /audio/transcriptions endpoint (its key from LILO_TRANSCRIBE_API_KEY in the environment). */
  transcribeUrl?: string;
  /** Voice replies: an OpenAI-compatible /audio/speech endpoint (its key from LILO_SPEECH_API_KEY in the environment). */
  speechUrl?: string;
}

/** A problem with one option: the option's name and the problem, nothing written. */
function problem(what: string, p: string | undefined): void {
  if (p) throw new Error(`${what}: ${p}`);
}

/**
 * Checks the answers, writes `.env`, then fetches Lilo's own model when the
 * chat runs on it (or, offline, says what to copy where). `say` gets what the
 * user should read besides the result. Throws the first problem; a failed
 * download throws after `.env` is written, naming the file to copy and where.
 */
export async function scriptedSetup(a: ScriptedAnswers, place: SetupPlace, say: (line: string) => void): Promise<string> {
  const env = place.env;
  const owner = ownerId(env);
  const t = setupTexts(a.language);
  problem("--name", checkName(owner, a.name));
  const timezone = a.timezone ?? systemTimeZone();
  problem("--timezone", check("LILO_TIMEZONE", timezone));
  problem("--model", check("LILO_CHAT_MODEL", a.model));
  const lines: EnvLines = { LILO_LANGUAGE: a.language, LILO_USER_NAMES: `${owner}=${a.name}`, LILO_TIMEZONE: timezone };
  Object.assign(lines, isLocal(a.model) ? ownModelLines(a.model, place) : await providerLines(a, env));
  if (a.telegramUser) Object.assign(lines, await scriptedTelegram(a.telegramUser, env, owner));
  if (a.matrixUser) Object.assign(lines, await scriptedMatrix(a.matrixUser, env, owner));
  Object.assign(lines, voiceLines(a, env));
  const missing = missingFiles(lines, env, place.folders, place.catalogue ?? []);
  missingLines(t, missing).forEach(say);
  // Offline by the option (written to .env) or by the environment (which keeps saying so: nothing to write).
  const offlineEmbedding = a.offline === true || env.LILO_EMBEDDING_OFFLINE === "true";
  const offlineOwn = a.offline === true || env.LILO_LOCAL_OFFLINE === "true";
  const way = offlineWay(t, {
    ...(offlineEmbedding && missing.embedding ? { embedding: missing.embedding } : {}),
    ...(offlineOwn && missing.own ? { own: missing.own } : {}),
  });
  way.say.forEach(say);
  if (a.offline) {
    Object.assign(lines, way.lines);
    offlineWritten(t, way.lines).forEach(say);
  }
  checkWhole(lines);
  const key = dataKeyStep(place.envFile, env, place.dbPath);
  Object.assign(lines, key.lines);
  writeEnvFile(place.envFile, lines);
  if (key.say) say(key.say);
  if (!offlineOwn && missing.own) {
    const failed = await fetchOwnModel(t, missing.own, env, say, place.progress);
    if (failed) throw new Error(`${failed}\n(${place.envFile} is written.)`);
  }
  return place.envFile;
}

const isLocal = (model: string) => model === "local" || model.startsWith("local:");

/** `local` or `local:<name>`: a catalogue model, or an own .gguf file that must exist. No key, no server. */
function ownModelLines(model: string, place: SetupPlace): EnvLines {
  const name = model.slice("local:".length).trim();
  if (model !== "local") {
    problem("--model", localModelProblem(name));
    const file = isAbsolute(name) ? name : resolve(place.folders.local, name);
    if (name.toLowerCase().endsWith(".gguf") && !existsSync(file)) problem("--model", `${file} does not exist`);
  }
  return { LILO_CHAT_MODEL: model };
}

/** A provider's model: its key from the environment or a server's address, and the model on the provider's list. */
async function providerLines(a: ScriptedAnswers, env: SetupPlace["env"]): Promise<EnvLines> {
  const [provider, ...rest] = a.model.split(":");
  const model = rest.join(":");
  const vendor =
    provider === "anthropic"
      ? { keyVar: "ANTHROPIC_API_KEY", urlVar: "ANTHROPIC_BASE_URL" }
      : OPENAI_COMPATIBLE_VENDORS[provider as keyof typeof OPENAI_COMPATIBLE_VENDORS];
  if (!vendor || !model)
    throw new Error(
      `--model: write provider:model with a provider of anthropic, ${Object.keys(OPENAI_COMPATIBLE_VENDORS).join(", ")} (e.g. openai:gpt-4o-mini), or local / local:<name> for Lilo's own model`,
    );
  const lines: EnvLines = {};
  const key = env[vendor.keyVar]?.trim();
  if (key) lines[vendor.keyVar] = key;
  if (a.baseUrl) {
    problem("--base-url", check(vendor.urlVar, a.baseUrl));
    lines[vendor.urlVar] = a.baseUrl;
  }
  if (!key && !a.baseUrl) throw new Error(`--model ${a.model}: set ${vendor.keyVar} in the environment, or give --base-url of a server that needs no key`);
  lines.LILO_CHAT_MODEL = a.model;
  const offered = await listModels(provider!, settingsFor(provider!, key, a.baseUrl ?? env[vendor.urlVar]));
  problem("--model", notOffered(setupTexts(a.language), model, offered));
  return lines;
}

async function scriptedTelegram(user: string, env: SetupPlace["env"], owner: string): Promise<EnvLines> {
  const token = env.TELEGRAM_BOT_TOKEN?.trim();
  if (!token) throw new Error("--telegram-user needs TELEGRAM_BOT_TOKEN in the environment");
  if (!/^\d+$/.test(user)) throw new Error(`--telegram-user: a numeric Telegram id, not "${user}"`);
  await telegramBotName(env.TELEGRAM_API_ROOT, token);
  return { TELEGRAM_BOT_TOKEN: token, TELEGRAM_ALLOWED_USERS: `${user}=${owner}` };
}

async function scriptedMatrix(user: string, env: SetupPlace["env"], owner: string): Promise<EnvLines> {
  const homeserver = env.MATRIX_HOMESERVER_URL?.trim();
  const token = env.MATRIX_ACCESS_TOKEN?.trim();
  if (!homeserver || !token) throw new Error("--matrix-user needs MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN in the environment");
  await matrixWhoami(homeserver, token);
  return { MATRIX_HOMESERVER_URL: homeserver, MATRIX_ACCESS_TOKEN: token, MATRIX_ALLOWED_USERS: `${user}=${owner}` };
}

/** The transcription and speech endpoints, side by side (docs/voice.md), with their keys when the environment has them. */
function voiceLines(a: ScriptedAnswers, env: NodeJS.ProcessEnv): EnvLines {
  const lines: EnvLines = {};
  if (a.transcribeUrl) {
    problem("--transcribe-url", check("LILO_TRANSCRIBE_BASE_URL", a.transcribeUrl));
    lines.LILO_TRANSCRIBE_BASE_URL = a.transcribeUrl;
    if (env.LILO_TRANSCRIBE_API_KEY) lines.LILO_TRANSCRIBE_API_KEY = env.LILO_TRANSCRIBE_API_KEY;
  }
  if (a.speechUrl) {
    problem("--speech-url", check("LILO_SPEECH_BASE_URL", a.speechUrl));
    lines.LILO_SPEECH_BASE_URL = a.speechUrl;
    if (env.LILO_SPEECH_API_KEY) lines.LILO_SPEECH_API_KEY = env.LILO_SPEECH_API_KEY;
  }
  return lines;
}
