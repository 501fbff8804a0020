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
  matrix: string;
  matrixHomeserver: string;
  matrixToken: string;
  matrixBot: (userId: string) => string;
  matrixUser: string;
  /** An online check of a token failed: `service` is "Telegram" or the homeserver. */
  checkFailed: Record<"unreachable" | "refused" | "unexpected", (service: string) => string>;
  timezone: string;
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
  pickModel: (n) => `Der Server bietet ${n} Modelle an:`,
  modelName: "Modell",
  notOffered: (m, some) => `„${m}“ bietet der Anbieter nicht an (z. B. ${some})`,
  localModel: "Lilos eigenes lokales Modell (läuft auf diesem Rechner)",
  checking: "Prüfe …",
  noList: "Der Anbieter nennt keine Modellliste; der Name wird beim Start geprüft.",
  telegram: "Mit Telegram verbinden",
  telegramToken: "Token deines Bots von @BotFather (wird nicht angezeigt)",
  telegramBot: (u) => `✓ Bot @${u} gefunden.`,
  telegramWaiting: (u) => `Schick deinem Bot @${u} jetzt in Telegram eine Nachricht (z. B. „Hallo“), damit Lilo dich erkennt …`,
  telegramFound: (id, name) => `✓ Nachricht von ${name} (Telegram-ID ${id}): nur du darfst mit Lilo schreiben.`,
  telegramTimeout: "Keine Nachricht angekommen; versuch es noch einmal.",
  matrix: "Mit Matrix verbinden",
  matrixHomeserver: "Adresse des Homeservers (z. B. https://matrix.example.org)",
  matrixToken: "Zugangstoken des Bot-Kontos (wird nicht angezeigt)",
  checkFailed: {
    unreachable: (service) => `${service} ist nicht erreichbar; prüfe die Adresse und die Verbindung.`,
    refused: (service) => `${service} hat den Token abgelehnt; kopiere ihn noch einmal.`,
    unexpected: (service) => `${service} hat unerwartet geantwortet; stimmt die Adresse?`,
  },
  matrixBot: (id) => `✓ Angemeldet als ${id}.`,
  matrixUser: "Deine eigene Matrix-ID (z. B. @du:example.org)",
  timezone: "Zeitzone",
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
  pickModel: (n) => `The server offers ${n} models:`,
  modelName: "Model",
  notOffered: (m, some) => `the provider does not offer "${m}" (e.g. ${some})`,
  localModel: "Lilo's own local model (runs on this computer)",
  checking: "Checking …",
  noList: "The provider lists no models; the name is checked at start.",
  telegram: "Connect Telegram",
  telegramToken: "Your bot's token from @BotFather (not shown)",
  telegramBot: (u) => `✓ Found the bot @${u}.`,
  telegramWaiting: (u) => `Now send your bot @${u} a message in Telegram (e.g. "hi"), so Lilo knows it is you …`,
  telegramFound: (id, name) => `✓ Message from ${name} (Telegram id ${id}): only you may talk to Lilo.`,
  telegramTimeout: "No message arrived; try again.",
  matrix: "Connect Matrix",
  matrixHomeserver: "Homeserver address (e.g. https://matrix.example.org)",
  matrixToken: "The bot account's access token (not shown)",
  checkFailed: {
    unreachable: (service) => `${service} cannot be reached; check the address and the connection.`,
    refused: (service) => `${service} refused the token; copy it once more.`,
    unexpected: (service) => `${service} answered unexpectedly; is the address right?`,
  },
  matrixBot: (id) => `✓ Signed in as ${id}.`,
  matrixUser: "Your own Matrix id (e.g. @you:example.org)",
  timezone: "Time zone",
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
