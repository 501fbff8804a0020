import type { ErrorCode } from "./error-codes.ts";

/** The languages a user can be told an error in (the persona's). */
export type ErrorLanguage = "de" | "en";

/**
 * Sentences for the errors a user can meet in a chat, by key. A typed error
 * carries one of these keys with its arguments (`said(...)`); the English
 * sentence is also its message for logs and the CLI, and
 * `describeError(err, language)` says it in the persona's language.
 * Arguments are names, variables, numbers: nothing that needs translating.
 */
interface ErrorSentences {
  /** A model provider was chosen whose API key is not set. */
  missingApiKey(provider: string, keyVar: string, urlVar?: string): string;
  /** A model name names a provider Lilo does not know. */
  unknownProvider(provider: string, choices: string): string;
  /** A model name without the model: "anthropic:" or "". */
  modelNotNamed(provider?: string): string;
  /** The provider's `/models` list lacks the model. */
  modelNotOffered(provider: string, model: string, offered: string): string;
  /** A switch to a provider that is not set up; the reason (the cause) follows. */
  providerUnusable(provider: string): string;
  /** `local:<name>` asked for in a process that runs no local model. */
  localModelUnavailable(model: string): string;
  /** The provider answered 401/403. */
  providerKeyRefused(provider: string, status: number): string;
  /** The provider answered 404: the model or the address is wrong. */
  providerNotFound(provider: string, status: number): string;
  /** The provider answered 429. */
  providerRateLimited(provider: string): string;
  /** The provider answered 5xx. */
  providerDown(provider: string, status: number): string;
  /** The provider answered another 4xx. */
  providerRefused(provider: string, status: number): string;
  /** No answer within the time allowed. */
  providerTimeout(provider: string): string;
  /** No connection to the provider. */
  providerUnreachable(provider: string): string;
  /** The call was cancelled (shutdown, a newer message). */
  providerAborted(provider: string): string;
  /** Any other failure of a model call. */
  providerFailed(provider: string): string;
  /** No chat model is configured at all. */
  noModel(): string;
  /** A message with no text reached the turn. */
  emptyMessage(): string;
  /** A spent day or month budget refused a model call before it was made. */
  budgetSpent(): string;
  /** "Forget everywhere" by words got no word that means something (a single letter, a stop word). */
  forgetNeedsWord(text: string): string;
}

/** System errors (errno) with a sentence of their own. */
export type SystemErrorCode =
  "ENOENT" | "EACCES" | "EPERM" | "EISDIR" | "ENOTDIR" | "EEXIST" | "ENOSPC" | "EROFS" | "EMFILE" | "ECONNREFUSED" | "ENOTFOUND" | "ETIMEDOUT";

/** Everything Lilo can say about an error, in one language. */
interface ErrorTexts {
  /** Sentences by key (ErrorSentences). */
  says: ErrorSentences;
  /** What an error with no sentence of its own means, by its code. */
  codes: Record<ErrorCode, string>;
  /** System errors by errno code, naming the file or address. */
  system: Record<SystemErrorCode, (where: string) => string>;
  /** The `where` of a system error that names no file. */
  someFile: string;
  /** Anything else (a bug): the details are in the log. */
  unknown: string;
}

const de: ErrorTexts = {
  says: {
    missingApiKey: (provider, keyVar, urlVar) =>
      `Der Modellanbieter „${provider}“ braucht einen API-Schlüssel: setze ${keyVar}` +
      (urlVar ? ` (oder, für einen lokalen Server ohne Schlüssel, ${urlVar} auf seine Adresse)` : "") +
      ".",
    unknownProvider: (provider, choices) => `Den Anbieter „${provider}“ gibt es nicht (möglich: ${choices}), z. B. ollama:llama3.1:8b.`,
    modelNotNamed: (provider) =>
      provider
        ? `Nenne das Modell nach „${provider}:“, z. B. ${provider}:<Modellname>.`
        : "Nenne ein Modell, z. B. anthropic:claude-sonnet-4-5 oder deepseek:deepseek-chat.",
    modelNotOffered: (provider, model, offered) => `„${provider}“ bietet das Modell „${model}“ nicht an (angeboten werden: ${offered}).`,
    providerUnusable: (provider) => `Der Anbieter „${provider}“ ist nicht eingerichtet; das Chat-Modell bleibt, wie es war.`,
    localModelUnavailable: (model) => `local:${model}: Lilos eigenes Modell läuft in diesem Prozess nicht.`,
    providerKeyRefused: (provider, status) => `Der Modellanbieter „${provider}“ hat den API-Schlüssel abgelehnt (HTTP ${status}).`,
    providerNotFound: (provider, status) => `Der Modellanbieter „${provider}“ kennt dieses Modell oder diese Adresse nicht (HTTP ${status}).`,
    providerRateLimited: (provider) => `Der Modellanbieter „${provider}“ nimmt gerade keine weiteren Anfragen an (HTTP 429).`,
    providerDown: (provider, status) => `Der Modellanbieter „${provider}“ hat gerade eine Störung (HTTP ${status}).`,
    providerRefused: (provider, status) => `Der Modellanbieter „${provider}“ hat die Anfrage abgelehnt (HTTP ${status}).`,
    providerTimeout: (provider) => `Der Modellanbieter „${provider}“ hat nicht rechtzeitig geantwortet.`,
    providerUnreachable: (provider) => `Der Modellanbieter „${provider}“ ist nicht erreichbar.`,
    providerAborted: (provider) => `Die Anfrage an „${provider}“ wurde abgebrochen.`,
    providerFailed: (provider) => `Die Anfrage an den Modellanbieter „${provider}“ ist fehlgeschlagen.`,
    noModel: () =>
      "Es ist kein Sprachmodell eingerichtet: trage in .env einen Schlüssel ein (ANTHROPIC_API_KEY, DEEPSEEK_API_KEY) oder OPENAI_BASE_URL mit LILO_CHAT_MODEL=openai:<Modellname>, oder führe lilo setup aus.",
    emptyMessage: () => "Eine leere Nachricht lässt sich nicht beantworten.",
    budgetSpent: () =>
      "Das Budget für Modellaufrufe ist aufgebraucht: keine Aufrufe, bis es sich erneuert oder jemand es mit /budget für heute aufhebt (lilo usage zeigt die Ausgaben).",
    forgetNeedsWord: (text) =>
      `In „${text}“ steht kein Wort, nach dem ich suchen kann. Nenne eins, das etwas bedeutet, etwa einen Namen oder einen Ort – nicht einen einzelnen Buchstaben oder ein Wort wie „und“.`,
  },
  codes: {
    "invalid-input": "Diese Eingabe lässt sich so nicht verwenden.",
    internal: "Ein interner Fehler ist aufgetreten (Einzelheiten im Protokoll).",
    database: "Die Datenbank ließ sich nicht öffnen.",
    locked: "Ein anderer Lilo-Prozess schreibt gerade in die Datenbank.",
    import: "Der Import ist fehlgeschlagen; nichts wurde übernommen.",
    restore: "Die Wiederherstellung ist fehlgeschlagen.",
    diary: "Der Tagebucheintrag wurde nicht gespeichert.",
    "empty-answer": "Das Modell hat leer geantwortet.",
    "not-private": "Dieser Chat ist nicht (mehr) privat; Push-Nachrichten bleiben dort aus.",
    "media-download": "Die Datei ließ sich nicht herunterladen.",
    "media-too-large": "Die Datei ist zu groß.",
    "budget-spent": "Das Budget für Modellaufrufe ist aufgebraucht.",
    reranker: "Das Modell, das Suchergebnisse sortiert, ließ sich nicht laden oder ausführen.",
    lexicon: "Das Wörterbuch der Begriffe ließ sich nicht lesen.",
    cancelled: "Lilo wird gerade beendet; die Nachricht wird nach dem Neustart beantwortet.",
    config: "Die Einstellungen sind unvollständig oder fehlerhaft (Einzelheiten im Protokoll).",
    provider: "Der Modellanbieter hat einen Fehler gemeldet.",
    embedder: "Das Embedding-Modell ließ sich nicht laden oder ausführen.",
    "vector-index": "Der Suchindex hat einen Fehler gemeldet.",
    "not-found": "Diesen Eintrag gibt es nicht (mehr).",
    lookup: "Die Suche im Netz oder das Lesen der Seite hat nicht geklappt.",
    analysis: "Die Analyse ließ sich nicht abschließen.",
  },
  system: {
    ENOENT: (p) => `${p} gibt es nicht`,
    EACCES: (p) => `${p} darf dieser Benutzer weder lesen noch schreiben (Zugriff verweigert)`,
    EPERM: (p) => `${p} darf dieser Benutzer nicht ändern (Vorgang nicht erlaubt)`,
    EISDIR: (p) => `${p} ist ein Ordner, keine Datei`,
    ENOTDIR: (p) => `ein Teil von ${p} ist eine Datei, kein Ordner`,
    EEXIST: (p) => `${p} gibt es schon`,
    ENOSPC: (p) => `der Datenträger von ${p} ist voll`,
    EROFS: (p) => `${p} liegt auf einem schreibgeschützten Dateisystem`,
    EMFILE: () => "zu viele Dateien sind gleichzeitig offen",
    ECONNREFUSED: (p) => `unter ${p} antwortet niemand (Verbindung abgelehnt)`,
    ENOTFOUND: (p) => `den Rechner ${p} kennt das DNS nicht`,
    ETIMEDOUT: (p) => `${p} hat nicht rechtzeitig geantwortet`,
  },
  someFile: "die Datei",
  unknown: "Da ist etwas schiefgegangen (Einzelheiten im Protokoll).",
};

const en: ErrorTexts = {
  says: {
    missingApiKey: (provider, keyVar, urlVar) =>
      `The model provider "${provider}" needs an API key: set ${keyVar}` +
      (urlVar ? ` (or, for a local server that needs no key, set ${urlVar} to its URL)` : "") +
      ".",
    unknownProvider: (provider, choices) => `Unknown provider "${provider}" (use one of: ${choices}), e.g. ollama:llama3.1:8b.`,
    modelNotNamed: (provider) =>
      provider
        ? `Name the model after "${provider}:", e.g. ${provider}:<model name>.`
        : "Name a model, e.g. anthropic:claude-sonnet-4-5 or deepseek:deepseek-chat.",
    modelNotOffered: (provider, model, offered) => `The provider "${provider}" does not offer the model "${model}" (it offers: ${offered}).`,
    providerUnusable: (provider) => `The provider "${provider}" is not set up; the chat model stays as it was.`,
    localModelUnavailable: (model) => `local:${model}: Lilo's own model is not available in this process.`,
    providerKeyRefused: (provider, status) => `The model provider "${provider}" refused the API key (HTTP ${status}).`,
    providerNotFound: (provider, status) => `The model provider "${provider}" knows no such model or address (HTTP ${status}).`,
    providerRateLimited: (provider) => `The model provider "${provider}" takes no more requests right now (HTTP 429).`,
    providerDown: (provider, status) => `The model provider "${provider}" has trouble on its side (HTTP ${status}).`,
    providerRefused: (provider, status) => `The model provider "${provider}" refused the request (HTTP ${status}).`,
    providerTimeout: (provider) => `The model provider "${provider}" did not answer in time.`,
    providerUnreachable: (provider) => `The model provider "${provider}" cannot be reached.`,
    providerAborted: (provider) => `The request to "${provider}" was cancelled.`,
    providerFailed: (provider) => `The request to the model provider "${provider}" failed.`,
    noModel: () =>
      "No language model is set up: put a key in .env (ANTHROPIC_API_KEY, DEEPSEEK_API_KEY) or OPENAI_BASE_URL with LILO_CHAT_MODEL=openai:<model name>, or run lilo setup.",
    emptyMessage: () => "An empty message cannot be answered.",
    budgetSpent: () => "The budget for model calls is spent: no calls until it renews or someone lifts it for today with /budget (lilo usage shows the spend).",
    forgetNeedsWord: (text) =>
      `"${text}" holds no word I can look for. Name one that means something, such as a name or a place – not a single letter or a word like "and".`,
  },
  codes: {
    "invalid-input": "That input cannot be used like this.",
    internal: "An internal error happened (details in the log).",
    database: "The database could not be opened.",
    locked: "Another Lilo process is writing to the database.",
    import: "The import failed; nothing was imported.",
    restore: "The restore failed.",
    diary: "The diary entry was not stored.",
    "empty-answer": "The model gave an empty answer.",
    "not-private": "This chat is not private (any more); push messages are withheld there.",
    "media-download": "The file could not be downloaded.",
    "media-too-large": "The file is too large.",
    "budget-spent": "The budget for model calls is spent.",
    reranker: "The model that ranks search results could not be loaded or run.",
    lexicon: "The lexicon of concepts could not be read.",
    cancelled: "Lilo is stopping; the message is answered after the restart.",
    config: "The configuration is incomplete or wrong (details in the log).",
    provider: "The model provider reported an error.",
    embedder: "The embedding model could not be loaded or run.",
    "vector-index": "The search index reported an error.",
    "not-found": "That entry does not exist (any more).",
    lookup: "The web search or reading the page failed.",
    analysis: "The analysis could not be completed.",
  },
  system: {
    ENOENT: (p) => `${p} does not exist`,
    EACCES: (p) => `${p} may not be read or written by this user (permission denied)`,
    EPERM: (p) => `${p} may not be changed by this user (operation not permitted)`,
    EISDIR: (p) => `${p} is a folder, not a file`,
    ENOTDIR: (p) => `a part of ${p} is a file, not a folder`,
    EEXIST: (p) => `${p} exists already`,
    ENOSPC: (p) => `the disk holding ${p} is full`,
    EROFS: (p) => `${p} is on a read-only file system`,
    EMFILE: () => "too many files are open at once",
    ECONNREFUSED: (p) => `nothing answers at ${p} (connection refused)`,
    ENOTFOUND: (p) => `the host ${p} is not known (DNS)`,
    ETIMEDOUT: (p) => `${p} did not answer in time`,
  },
  someFile: "the file",
  unknown: "Something went wrong (details in the log).",
};

/** The error texts per language. */
export const ERROR_TEXTS: Readonly<Record<ErrorLanguage, ErrorTexts>> = { de, en };

/** A key of ErrorSentences. */
type SaidKey = keyof ErrorSentences;

/** What an error says to a user: a sentence's key and its arguments. */
export interface Said<K extends SaidKey = SaidKey> {
  readonly key: K;
  readonly args: Parameters<ErrorSentences[K]>;
}

/** The sentence `key` with its arguments, to give a typed error (`new ConfigError(said("missingApiKey", …))`). */
export function said<K extends SaidKey>(key: K, ...args: Parameters<ErrorSentences[K]>): Said<K> {
  return { key, args };
}

/** Sentences after which the error's cause is said too ("… is not set up; the chat model stays. <why>"). */
const CAUSE_FOLLOWS: ReadonlySet<SaidKey> = new Set<SaidKey>(["providerUnusable"]);

/** Whether the cause is said after this sentence. */
export const causeFollows = (s: Said): boolean => CAUSE_FOLLOWS.has(s.key);

/** The sentence in one language. */
export function sayIn(language: ErrorLanguage, s: Said): string {
  const sentence = ERROR_TEXTS[language].says[s.key] as (...args: readonly unknown[]) => string;
  return sentence(...s.args);
}
