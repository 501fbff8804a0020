/**
 * `lilo setup`: the questions (interactive) or the options (`--yes`) turned
 * into `.env` lines, each answer checked against the configuration's own
 * zod rules as it comes, the whole checked once more before it is written.
 */
import { existsSync } from "node:fs";
import { userInfo } from "node:os";
import { checkValue, configTable, listModels, OPENAI_COMPATIBLE_VENDORS } from "../../core/internal.ts";
import { describeError, loadConfig } from "../../core/index.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";
import { Asker, type SetupStreams } from "./ask.ts";
import { matrixWhoami, SetupCheckError, telegramBotName, telegramFirstSender } from "./checks.ts";
import { writeEnvFile } from "./env-file.ts";
import { modelChoices, notOffered, settingsFor, type EnvLines, type LocalModelOffer } from "./model-choices.ts";
import { setupTexts, YES_ANSWERS, type SetupTexts } from "./texts.ts";

const table = configTable(ADAPTER_SECTIONS);
/** The configuration's rule for one variable: its problem, or undefined. */
const check = (variable: string, value: string) => checkValue(variable, value, table);

/** What the setup needs besides its answers. */
export interface SetupPlace {
  envFile: string;
  /** The environment it runs in: TELEGRAM_API_ROOT, a provider's base URL, the keys of `--yes`. */
  env: Record<string, string | undefined>;
  /** Lilo's own downloadable models; empty: the choice is not offered. */
  catalogue?: readonly LocalModelOffer[];
  /** How long to wait for the user's first Telegram message per try. */
  telegramWaitMs?: number;
}

/** The Lilo user id the answers are for (the terminal chat's). */
const ownerId = (env: SetupPlace["env"]) => env.LILO_TERMINAL_USER?.trim() || "owner";

/** The language the questions start in: German when the system speaks it, else English. */
export function systemLanguage(env: SetupPlace["env"]): "de" | "en" {
  return /^de/i.test(env.LC_ALL || env.LC_MESSAGES || env.LANG || "") ? "de" : "en";
}

/** The system's time zone (IANA), the default answer. */
export const systemTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

function checkName(owner: string, name: string): string | undefined {
  if (/[,=]/.test(name)) return `"," and "=" cannot be part of the name`;
  return check("LILO_USER_NAMES", `${owner}=${name}`) ?? (name.trim() ? undefined : "?");
}

/** Asks every question and writes `.env`; returns its path, or undefined when the user kept an existing file. */
export async function interactiveSetup(streams: SetupStreams, place: SetupPlace): Promise<string | undefined> {
  const asker = new Asker(streams);
  try {
    const sys = systemLanguage(place.env);
    const lang = (["de", "en"] as const)[
      await asker.choose(
        "Sprache / Language",
        [
          { name: "de", label: "Deutsch" },
          { name: "en", label: "English" },
        ],
        sys === "de" ? 0 : 1,
      )
    ]!;
    const t = setupTexts(lang);
    asker.say(t.welcome);
    const owner = ownerId(place.env);
    const name = await asker.ask({ text: t.name, default: defaultName(), check: (n) => checkName(owner, n) });
    const choices = modelChoices(place.catalogue ?? []);
    const choice =
      choices[
        await asker.choose(
          t.model,
          choices.map((c) => ({ name: c.name, label: c.label(t) })),
        )
      ]!;
    const model = await choice.ask({ asker, t, language: lang, check });
    const telegram = (await yes(asker, t.yesNo(t.telegram), lang)) ? await askTelegram(asker, t, place, owner) : {};
    const matrix = (await yes(asker, t.yesNo(t.matrix), lang)) ? await askMatrix(asker, t, owner) : {};
    const timezone = await asker.ask({ text: t.timezone, default: systemTimeZone(), check: (z) => check("LILO_TIMEZONE", z) });
    const lines = { LILO_LANGUAGE: lang, LILO_USER_NAMES: `${owner}=${name}`, LILO_TIMEZONE: timezone, ...model, ...telegram, ...matrix };
    checkWhole(lines);
    if (existsSync(place.envFile) && !(await yes(asker, t.overwrite(place.envFile), lang))) {
      asker.say(t.kept);
      return undefined;
    }
    writeEnvFile(place.envFile, lines);
    asker.say(t.written(place.envFile));
    return place.envFile;
  } finally {
    asker.close();
  }
}

function defaultName(): string {
  const user = (() => {
    try {
      return userInfo().username;
    } catch {
      return ""; // no user entry (a container): no suggestion
    }
  })();
  return user && user !== "root" ? user.charAt(0).toUpperCase() + user.slice(1) : "";
}

/** A yes/no question; no is the default. */
async function yes(asker: Asker, question: string, lang: "de" | "en"): Promise<boolean> {
  const a = await asker.ask({ text: question, default: "n" });
  return (YES_ANSWERS[lang] as readonly string[]).includes(a.toLowerCase());
}

async function askTelegram(asker: Asker, t: SetupTexts, place: SetupPlace, owner: string): Promise<EnvLines> {
  let bot = "";
  const apiRoot = place.env.TELEGRAM_API_ROOT;
  const token = await asker.ask({
    text: t.telegramToken,
    secret: true,
    check: async (v) => {
      const bad = check("TELEGRAM_BOT_TOKEN", v);
      if (bad) return bad;
      try {
        bot = await telegramBotName(apiRoot, v);
        return undefined;
      } catch (err) {
        return checkFailed(err, t, "Telegram");
      }
    },
  });
  asker.say(t.telegramBot(bot));
  for (;;) {
    asker.say(t.telegramWaiting(bot));
    const sender = await telegramFirstSender(apiRoot, token, place.telegramWaitMs ?? 120_000);
    if (sender) {
      asker.say(t.telegramFound(sender.id, sender.name));
      return { TELEGRAM_BOT_TOKEN: token, TELEGRAM_ALLOWED_USERS: `${sender.id}=${owner}` };
    }
    asker.say(t.telegramTimeout);
  }
}

async function askMatrix(asker: Asker, t: SetupTexts, owner: string): Promise<EnvLines> {
  const homeserver = await asker.ask({ text: t.matrixHomeserver, check: (v) => check("MATRIX_HOMESERVER_URL", v) });
  let bot = "";
  const token = await asker.ask({
    text: t.matrixToken,
    secret: true,
    check: async (v) => {
      const bad = check("MATRIX_ACCESS_TOKEN", v);
      if (bad) return bad;
      try {
        bot = await matrixWhoami(homeserver, v);
        return undefined;
      } catch (err) {
        return checkFailed(err, t, homeserver);
      }
    },
  });
  asker.say(t.matrixBot(bot));
  const me = await asker.ask({
    text: t.matrixUser,
    check: (v) => (/^@[^:\s]+:\S+$/.test(v) ? check("MATRIX_ALLOWED_USERS", `${v}=${owner}`) : "@name:server"),
  });
  return { MATRIX_HOMESERVER_URL: homeserver, MATRIX_ACCESS_TOKEN: token, MATRIX_ALLOWED_USERS: `${me}=${owner}` };
}

/** A failed token check in the setup's language; anything else (a bug) as its message. */
function checkFailed(err: unknown, t: SetupTexts, service: string): string {
  return err instanceof SetupCheckError ? t.checkFailed[err.reason](service) : describeError(err);
}

/** The answers read as a whole configuration, as `npm start` will: a cross-variable problem stops before anything is written. */
function checkWhole(lines: EnvLines): void {
  loadConfig(lines, ADAPTER_SECTIONS);
}

/** The answers of `lilo setup --yes`; keys and tokens come from the environment, never from the command line. */
export interface ScriptedAnswers {
  language: "de" | "en";
  name: string;
  /** provider:model */
  model: string;
  baseUrl?: string;
  timezone?: string;
  /** Your Telegram id (needs TELEGRAM_BOT_TOKEN in the environment). */
  telegramUser?: string;
  /** Your Matrix id (needs MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN in the environment). */
  matrixUser?: string;
}

/** `lilo setup --yes`: the same checks without questions; throws the first problem, writing nothing. */
export async function scriptedSetup(a: ScriptedAnswers, place: SetupPlace): Promise<string> {
  const env = place.env;
  const owner = ownerId(env);
  const problem = (what: string, p: string | undefined) => {
    if (p) throw new Error(`${what}: ${p}`);
  };
  problem("--name", checkName(owner, a.name));
  const timezone = a.timezone ?? systemTimeZone();
  problem("--timezone", check("LILO_TIMEZONE", timezone));
  problem("--model", check("LILO_CHAT_MODEL", a.model));
  const [provider, ...rest] = a.model.split(":");
  const model = rest.join(":");
  const vendor =
    provider === "anthropic"
      ? { keyVar: "ANTHROPIC_API_KEY", urlVar: "ANTHROPIC_BASE_URL" }
      : OPENAI_COMPATIBLE_VENDORS[provider as keyof typeof OPENAI_COMPATIBLE_VENDORS];
  if (!vendor || !model)
    throw new Error(
      `--model: write provider:model with a provider of anthropic, ${Object.keys(OPENAI_COMPATIBLE_VENDORS).join(", ")}, e.g. openai:gpt-4o-mini`,
    );
  const lines: EnvLines = { LILO_LANGUAGE: a.language, LILO_USER_NAMES: `${owner}=${a.name}`, LILO_TIMEZONE: timezone };
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
  if (a.telegramUser) Object.assign(lines, await scriptedTelegram(a.telegramUser, env, owner));
  if (a.matrixUser) Object.assign(lines, await scriptedMatrix(a.matrixUser, env, owner));
  checkWhole(lines);
  writeEnvFile(place.envFile, lines);
  return place.envFile;
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
