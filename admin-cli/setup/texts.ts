/** The setup's words in the language the user picked first (LILO_LANGUAGE). */
export interface SetupTexts {
  welcome: string;
  name: string;
  model: string;
  anthropicKey: string;
  openaiKey: string;
  deepseekKey: string;
  serverUrl: string;
  serverChoice: string;
  keyOptional: string;
  pickModel: (count: number) => string;
  /** The own server's address could not be reached: the address and the reason, so a typo or a stopped server shows. */
  serverUnreachable: (url: string, reason: string) => string;
  modelName: string;
  notOffered: (model: string, some: string) => string;
  localModel: string;
  checking: string;
  noList: string;
  telegram: string;
  telegramToken: string;
  telegramBot: (username: string) => string;
  telegramWaiting: (username: string) => string;
  telegramFound: (id: number, name: string) => string;
  telegramTimeout: string;
  /** After a wait without a message: wait once more, or skip Telegram. */
  telegramWaitAgain: string;
  /** An optional step was skipped (an empty answer to its first question). */
  skipped: (service: string) => string;
  matrix: string;
  matrixHomeserver: string;
  matrixToken: string;
  matrixBot: (userId: string) => string;
  matrixUser: string;
  /** An online check of a token failed: `service` is "Telegram" or the homeserver. */
  checkFailed: Record<"unreachable" | "refused" | "unexpected", (service: string) => string>;
  timezone: string;
  /** The files the first answer needs that are not there yet, before anything is written. */
  downloadsNeeded: string;
  embeddingFile: (model: string, size: string, path: string) => string;
  ownModelFile: (name: string, size: string, path: string) => string;
  howToGetThem: string;
  /** `own`: Lilo's own model is among them (the setup fetches it now, the embedding model comes with the first start). */
  downloadThem: (own: boolean) => string;
  copyThem: string;
  /** What to copy where for each file, and the switch that keeps Lilo from trying to download it. */
  copyEmbedding: (model: string, path: string) => string;
  copyOwnModel: (file: string, url: string, dir: string) => string;
  offlineWritten: (variables: string) => string;
  downloading: (name: string, size: string, dir: string) => string;
  downloaded: (path: string) => string;
  downloadFailed: (reason: string) => string;
  downloadLater: string;
  yesNo: (question: string) => string;
  overwrite: (path: string) => string;
  kept: string;
  written: (path: string) => string;
  next: string;
}

const de: SetupTexts = {
  welcome: "Willkommen! Ein paar Fragen, dann kann Lilo loslegen. (Enter nimmt den Vorschlag in [Klammern].)",
  name: "Wie soll Lilo dich nennen",
  model: "Welches Sprachmodell soll Lilo nutzen?",
  anthropicKey: "Anthropic-API-Schlüssel (wird nicht angezeigt)",
  openaiKey: "OpenAI-API-Schlüssel (wird nicht angezeigt)",
  deepseekKey: "DeepSeek-API-Schlüssel (wird nicht angezeigt)",
  serverUrl: "Adresse des Servers (OpenAI-kompatibel, z. B. Ollama)",
  serverChoice: "Ein eigener Server (OpenAI-kompatibel: Ollama, llama.cpp, LM Studio, vLLM)",
  keyOptional: "API-Schlüssel des Servers, falls er einen verlangt (Enter: keiner)",
  pickModel: (n) => (n === 1 ? "Der Server bietet 1 Modell an:" : `Der Server bietet ${n} Modelle an:`),
  serverUnreachable: (url, reason) => `${url} antwortet nicht: ${reason}. Läuft der Server, und stimmt die Adresse?`,
  modelName: "Modell",
  notOffered: (m, some) => `„${m}“ bietet der Anbieter nicht an (z. B. ${some})`,
  localModel: "Lilos eigenes lokales Modell (läuft auf diesem Rechner)",
  checking: "Prüfe …",
  noList: "Der Anbieter nennt keine Modellliste; der Name wird beim Start geprüft.",
  telegram: "Mit Telegram verbinden",
  telegramToken: "Token deines Bots von @BotFather (wird nicht angezeigt; Enter: überspringen)",
  telegramBot: (u) => `✓ Bot @${u} gefunden.`,
  telegramWaiting: (u) => `Schick deinem Bot @${u} jetzt in Telegram eine Nachricht (z. B. „Hallo“), damit Lilo dich erkennt …`,
  telegramFound: (id, name) => `✓ Nachricht von ${name} (Telegram-ID ${id}): nur du darfst mit Lilo schreiben.`,
  telegramTimeout: "Keine Nachricht angekommen.",
  telegramWaitAgain: "Noch einmal warten? (n: Telegram überspringen) (j/n)",
  skipped: (service) => `${service} übersprungen; \`npx lilo setup\` verbindet es später.`,
  matrix: "Mit Matrix verbinden",
  matrixHomeserver: "Adresse des Homeservers (z. B. https://matrix.example.org; Enter: überspringen)",
  matrixToken: "Zugangstoken des Bot-Kontos (wird nicht angezeigt; Enter: überspringen)",
  checkFailed: {
    unreachable: (service) => `${service} ist nicht erreichbar; prüfe die Adresse und die Verbindung.`,
    refused: (service) => `${service} hat den Token abgelehnt; kopiere ihn noch einmal.`,
    unexpected: (service) => `${service} hat unerwartet geantwortet; stimmt die Adresse?`,
  },
  matrixBot: (id) => `✓ Angemeldet als ${id}.`,
  matrixUser: "Deine eigene Matrix-ID (z. B. @du:example.org; Enter: überspringen)",
  timezone: "Zeitzone",
  downloadsNeeded: "Für die erste Antwort braucht Lilo diese Dateien, die noch fehlen:",
  embeddingFile: (m, size, path) => `  • das Embedding-Modell ${m} (${size}) im Ordner ${path}`,
  ownModelFile: (name, size, path) => `  • Lilos eigenes Modell ${name} (${size}) als ${path}`,
  howToGetThem: "Wie kommen sie dorthin?",
  downloadThem: (own) =>
    own
      ? "herunterladen (braucht Internet; Lilos eigenes Modell jetzt gleich, das Embedding-Modell beim ersten Start)"
      : "herunterladen (braucht Internet; beim ersten Start)",
  copyThem: "ich kopiere sie selbst dorthin (ohne Internet)",
  copyEmbedding: (m, path) =>
    `Kopiere den Ordner des Embedding-Modells (von https://huggingface.co/${m}: config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx) nach ${path}.`,
  copyOwnModel: (file, url, dir) => `Kopiere ${file} (von ${url}) in den Ordner ${dir}.`,
  offlineWritten: (vars) => `${vars} kommt in .env: Lilo lädt nichts herunter und nimmt die Dateien, sobald sie da sind.`,
  downloading: (name, size, dir) => `Lade Lilos eigenes Modell ${name} (${size}) nach ${dir}; ein Abbruch macht beim nächsten Mal dort weiter …`,
  downloaded: (path) => `✓ Heruntergeladen und geprüft: ${path}`,
  downloadFailed: (reason) => `✗ Der Download ist fehlgeschlagen: ${reason}`,
  downloadLater:
    "Der Download macht beim nächsten `npx lilo setup` oder bei der ersten Nachricht dort weiter, wo er stehen blieb. Ohne Internet: Datei wie oben kopieren und LILO_LOCAL_OFFLINE=true in .env setzen.",
  yesNo: (q) => `${q}? (j/n)`,
  overwrite: (p) => `${p} gibt es schon. Die Antworten ersetzen die passenden Zeilen, der Rest bleibt. Weiter? (j/n)`,
  kept: "Nichts geschrieben.",
  written: (p) => `✓ Gespeichert in ${p} (nur für dich lesbar).`,
  next: "Starte Lilo mit: npm start",
};

const en: SetupTexts = {
  welcome: "Welcome! A few questions, then Lilo is ready. (Enter takes the suggestion in [brackets].)",
  name: "What should Lilo call you",
  model: "Which language model should Lilo use?",
  anthropicKey: "Anthropic API key (not shown)",
  openaiKey: "OpenAI API key (not shown)",
  deepseekKey: "DeepSeek API key (not shown)",
  serverUrl: "Server address (OpenAI-compatible, e.g. Ollama)",
  serverChoice: "A server of your own (OpenAI-compatible: Ollama, llama.cpp, LM Studio, vLLM)",
  keyOptional: "The server's API key, if it needs one (Enter: none)",
  pickModel: (n) => (n === 1 ? "The server offers 1 model:" : `The server offers ${n} models:`),
  serverUnreachable: (url, reason) => `${url} does not answer: ${reason}. Is the server running, and is the address right?`,
  modelName: "Model",
  notOffered: (m, some) => `the provider does not offer "${m}" (e.g. ${some})`,
  localModel: "Lilo's own local model (runs on this computer)",
  checking: "Checking …",
  noList: "The provider lists no models; the name is checked at start.",
  telegram: "Connect Telegram",
  telegramToken: "Your bot's token from @BotFather (not shown; Enter: skip)",
  telegramBot: (u) => `✓ Found the bot @${u}.`,
  telegramWaiting: (u) => `Now send your bot @${u} a message in Telegram (e.g. "hi"), so Lilo knows it is you …`,
  telegramFound: (id, name) => `✓ Message from ${name} (Telegram id ${id}): only you may talk to Lilo.`,
  telegramTimeout: "No message arrived.",
  telegramWaitAgain: "Wait once more? (n: skip Telegram) (y/n)",
  skipped: (service) => `${service} skipped; \`npx lilo setup\` connects it later.`,
  matrix: "Connect Matrix",
  matrixHomeserver: "Homeserver address (e.g. https://matrix.example.org; Enter: skip)",
  matrixToken: "The bot account's access token (not shown; Enter: skip)",
  checkFailed: {
    unreachable: (service) => `${service} cannot be reached; check the address and the connection.`,
    refused: (service) => `${service} refused the token; copy it once more.`,
    unexpected: (service) => `${service} answered unexpectedly; is the address right?`,
  },
  matrixBot: (id) => `✓ Signed in as ${id}.`,
  matrixUser: "Your own Matrix id (e.g. @you:example.org; Enter: skip)",
  timezone: "Time zone",
  downloadsNeeded: "For the first answer Lilo needs these files, which are not there yet:",
  embeddingFile: (m, size, path) => `  • the embedding model ${m} (${size}) in the folder ${path}`,
  ownModelFile: (name, size, path) => `  • Lilo's own model ${name} (${size}) as ${path}`,
  howToGetThem: "How do they get there?",
  downloadThem: (own) =>
    own
      ? "download them (needs internet; Lilo's own model right now, the embedding model on the first start)"
      : "download them (needs internet; on the first start)",
  copyThem: "I copy them there myself (no internet)",
  copyEmbedding: (m, path) =>
    `Copy the embedding model's folder (from https://huggingface.co/${m}: config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx) to ${path}.`,
  copyOwnModel: (file, url, dir) => `Copy ${file} (from ${url}) into the folder ${dir}.`,
  offlineWritten: (vars) => `${vars} goes into .env: Lilo downloads nothing and takes the files once they are there.`,
  downloading: (name, size, dir) => `Downloading Lilo's own model ${name} (${size}) into ${dir}; if it stops, the next try continues there …`,
  downloaded: (path) => `✓ Downloaded and verified: ${path}`,
  downloadFailed: (reason) => `✗ The download failed: ${reason}`,
  downloadLater:
    "The download continues where it stopped on the next `npx lilo setup` or the first message. Without internet: copy the file as above and set LILO_LOCAL_OFFLINE=true in .env.",
  yesNo: (q) => `${q}? (y/n)`,
  overwrite: (p) => `${p} exists. Your answers replace its matching lines, the rest stays. Go on? (y/n)`,
  kept: "Nothing written.",
  written: (p) => `✓ Saved in ${p} (readable by you only).`,
  next: "Start Lilo with: npm start",
};

/** The setup's texts for a language. */
export const setupTexts = (language: "de" | "en"): SetupTexts => (language === "en" ? en : de);

/** The answers read as "yes" in each language (English ones always count). */
export const YES_ANSWERS = { de: ["j", "ja", "y", "yes"], en: ["y", "yes"] } as const;
