/** The terminal chat's own words, in the persona's language (LILO_LANGUAGE). */
export interface TerminalTexts {
  listening(name: string): string;
  help: string;
  logTo(path: string): string;
  nothingToRetry: string;
  noDiary(reason: string | undefined): string;
  noThought(reason: string | undefined): string;
  chatModel(spec: string, switched: boolean): string;
}

const de: TerminalTexts = {
  listening: (name) => `${name} hört zu.`,
  help: [
    "Befehle: /retry (letzte Nachricht neu beantworten), /model [anbieter:modell] (zeigen oder wechseln),",
    "/diary (Tagebuch jetzt schreiben), /think (jetzt nachdenken), /why (welche Erinnerungen die letzte Antwort hatte),",
    "/wrong N12, /outdated N12, /forget <Wörter|N12> (überall vergessen, mit „ja“ bestätigen), /help, /quit",
  ].join("\n"),
  logTo: (path) => `(Protokoll: ${path})`,
  nothingToRetry: "Nichts zu wiederholen: deine letzte Nachricht ist beantwortet.",
  noDiary: (reason) => `Kein Tagebucheintrag: ${reason ?? "-"}`,
  noThought: (reason) => `Kein Gedanke: ${reason ?? "-"}`,
  chatModel: (spec, switched) => `${switched ? "Chat-Modell ist jetzt" : "Chat-Modell"}: ${spec}`,
};

const en: TerminalTexts = {
  listening: (name) => `${name} is listening.`,
  help: [
    "Commands: /retry (answer the last message again), /model [provider:model] (show or switch),",
    "/diary (write the diary now), /think (think now), /why (which memories the last answer had),",
    '/wrong N12, /outdated N12, /forget <words|N12> (forget everywhere, confirm with "yes"), /help, /quit',
  ].join("\n"),
  logTo: (path) => `(log: ${path})`,
  nothingToRetry: "Nothing to retry: your last message was answered.",
  noDiary: (reason) => `No diary entry: ${reason ?? "-"}`,
  noThought: (reason) => `No thought: ${reason ?? "-"}`,
  chatModel: (spec, switched) => `${switched ? "Chat model is now" : "Chat model"}: ${spec}`,
};

/** The texts for a persona language. */
export const terminalTexts = (language: "de" | "en"): TerminalTexts => (language === "en" ? en : de);
