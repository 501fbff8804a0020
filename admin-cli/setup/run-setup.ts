/**
 * `lilo setup` with questions: each answer checked against the
 * configuration's own zod rules as it comes, the whole checked once more,
 * the files the first answer needs named before `.env` is written, and
 * Lilo's own model downloaded right after.
 */
import { existsSync } from "node:fs";
import { userInfo } from "node:os";
import { describeError } from "../../core/index.ts";
import { Asker, type SetupStreams } from "./ask.ts";
import { check, checkName, checkWhole, ownerId, systemLanguage, systemTimeZone, type SetupPlace } from "./answers.ts";
import { matrixWhoami, SetupCheckError, telegramBotName, telegramFirstSender } from "./checks.ts";
import { currentAnswers } from "./current.ts";
import { fetchOwnModel, missingFiles, missingLines, offlineWay, offlineWritten } from "./downloads.ts";
import { writeEnvFile } from "./env-file.ts";
import { dataKeyStep } from "./data-key.ts";
import { currentChoice, modelChoices, type EnvLines } from "./model-choices.ts";
import { setupTexts, YES_ANSWERS, type SetupTexts } from "./texts.ts";

export { systemLanguage, type SetupPlace } from "./answers.ts";

/** Asks every question and writes `.env`; returns its path, or undefined when the user kept an existing file. */
export async function interactiveSetup(streams: SetupStreams, place: SetupPlace): Promise<string | undefined> {
  const asker = new Asker(streams);
  try {
    const owner = ownerId(place.env);
    const current = currentAnswers(place.envFile, owner);
    const lang = await askLanguage(asker, current.language ?? systemLanguage(place.env));
    const t = setupTexts(lang);
    asker.say(t.welcome);
    const name = await asker.ask({ text: t.name, default: current.name ?? defaultName(), check: (n) => checkName(owner, n) });
    const choices = modelChoices(place.catalogue ?? []);
    const picked = await asker.choose(
      t.model,
      choices.map((c) => ({ name: c.name, label: c.label(t) })),
      currentChoice(choices, current),
    );
    const model = await choices[picked]!.ask({ asker, t, language: lang, check, current });
    const telegram = (await yes(asker, t.yesNo(t.telegram), lang)) ? await askTelegram(asker, t, lang, place, owner) : {};
    const matrix = (await yes(asker, t.yesNo(t.matrix), lang)) ? await askMatrix(asker, t, owner) : {};
    const timezone = await asker.ask({ text: t.timezone, default: current.timezone ?? systemTimeZone(), check: (z) => check("LILO_TIMEZONE", z) });
    const lines: EnvLines = { LILO_LANGUAGE: lang, LILO_USER_NAMES: `${owner}=${name}`, LILO_TIMEZONE: timezone, ...model, ...telegram, ...matrix };
    const missing = missingFiles(lines, place.env, place.folders, place.catalogue ?? []);
    const notice = missingLines(t, missing);
    let offline = false;
    if (notice.length) {
      notice.forEach((line) => asker.say(line));
      offline =
        (await asker.choose(t.howToGetThem, [
          { name: "download", label: t.downloadThem(missing.own !== undefined) },
          { name: "copy", label: t.copyThem },
        ])) === 1;
      if (offline) {
        const way = offlineWay(t, missing);
        Object.assign(lines, way.lines);
        [...way.say, ...offlineWritten(t, way.lines)].forEach((line) => asker.say(line));
      }
    }
    checkWhole(lines);
    if (existsSync(place.envFile) && !(await yes(asker, t.overwrite(place.envFile), lang))) {
      asker.say(t.kept);
      return undefined;
    }
    const key = dataKeyStep(place.envFile, place.env, place.dbPath);
    Object.assign(lines, key.lines);
    writeEnvFile(place.envFile, lines);
    asker.say(t.written(place.envFile));
    if (key.say) asker.say(key.say);
    // After .env: an interrupted download loses no answer, and the next try continues its part.
    if (!offline && missing.own) {
      const problem = await fetchOwnModel(t, missing.own, place.env, (line) => asker.say(line), place.progress);
      if (problem) asker.say(problem);
    }
    return place.envFile;
  } finally {
    asker.close();
  }
}

async function askLanguage(asker: Asker, suggested: "de" | "en"): Promise<"de" | "en"> {
  const languages = ["de", "en"] as const;
  const i = await asker.choose(
    "Sprache / Language",
    [
      { name: "de", label: "Deutsch" },
      { name: "en", label: "English" },
    ],
    languages.indexOf(suggested),
  );
  return languages[i]!;
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

/** A yes/no question; no is the default unless `byDefault` says yes. */
async function yes(asker: Asker, question: string, lang: "de" | "en", byDefault = false): Promise<boolean> {
  const a = await asker.ask({ text: question, default: byDefault ? YES_ANSWERS[lang][0] : "n" });
  return (YES_ANSWERS[lang] as readonly string[]).includes(a.toLowerCase());
}

/** Telegram's token, then the user's id from their first message; an empty answer or a "no" after a wait skips it. */
async function askTelegram(asker: Asker, t: SetupTexts, lang: "de" | "en", place: SetupPlace, owner: string): Promise<EnvLines> {
  let bot = "";
  const apiRoot = place.env.TELEGRAM_API_ROOT;
  const token = await asker.askOrSkip({
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
  if (token === undefined) return skipped(asker, t, "Telegram");
  asker.say(t.telegramBot(bot));
  for (;;) {
    asker.say(t.telegramWaiting(bot));
    const sender = await telegramFirstSender(apiRoot, token, place.telegramWaitMs ?? 120_000);
    if (sender) {
      asker.say(t.telegramFound(sender.id, sender.name));
      return { TELEGRAM_BOT_TOKEN: token, TELEGRAM_ALLOWED_USERS: `${sender.id}=${owner}` };
    }
    asker.say(t.telegramTimeout);
    if (!(await yes(asker, t.telegramWaitAgain, lang, true))) return skipped(asker, t, "Telegram");
  }
}

/** Homeserver, token and the user's own Matrix id; an empty answer to any of them skips Matrix. */
async function askMatrix(asker: Asker, t: SetupTexts, owner: string): Promise<EnvLines> {
  const homeserver = await asker.askOrSkip({ text: t.matrixHomeserver, check: (v) => check("MATRIX_HOMESERVER_URL", v) });
  if (homeserver === undefined) return skipped(asker, t, "Matrix");
  let bot = "";
  const token = await asker.askOrSkip({
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
  if (token === undefined) return skipped(asker, t, "Matrix");
  asker.say(t.matrixBot(bot));
  const me = await asker.askOrSkip({
    text: t.matrixUser,
    check: (v) => (/^@[^:\s]+:\S+$/.test(v) ? check("MATRIX_ALLOWED_USERS", `${v}=${owner}`) : "@name:server"),
  });
  if (me === undefined) return skipped(asker, t, "Matrix");
  return { MATRIX_HOMESERVER_URL: homeserver, MATRIX_ACCESS_TOKEN: token, MATRIX_ALLOWED_USERS: `${me}=${owner}` };
}

/** Says a step was skipped; it writes no line. */
function skipped(asker: Asker, t: SetupTexts, service: string): EnvLines {
  asker.say(t.skipped(service));
  return {};
}

/** A failed token check in the setup's language; anything else (a bug) as its message. */
function checkFailed(err: unknown, t: SetupTexts, service: string): string {
  return err instanceof SetupCheckError ? t.checkFailed[err.reason](service) : describeError(err);
}
