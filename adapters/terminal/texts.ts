/** The terminal chat's own words, in the persona's language (LILO_LANGUAGE). */
export interface TerminalTexts {
  listening(name: string): string;
  helpTitle: string;
  /** One line per command of the table (adapters/terminal/commands.ts), by its name. */
  commands: Record<string, string>;
  logTo(path: string): string;
  unknownCommand(word: string): string;
  nothingToRetry: string;
  chatModel(spec: string, switched: boolean): string;
  notesUsedTitle: string;
  notesUsedNone: string;
  newestTitle: string;
  newestNone: string;
  forgetUsage: string;
  forgotten(text: string): string;
  noSuchNote: string;
  pushOn: string;
  pushOff: string;
  pushStatus(on: boolean): string;
  pushTestText: string;
  pushUsage: string;
}

const de: TerminalTexts = {
  listening: (name) => `${name} hört zu.`,
  helpTitle: "Befehle:",
  commands: {
    help: "diese Übersicht",
    model: "Chat-Modell zeigen oder wechseln (/model anbieter:modell)",
    memory: "Notizen der letzten Antwort und die neuesten Notizen",
    why: "welche Erinnerungen meine letzte Antwort hatte",
    wrong: "eine Erinnerung stimmt nicht (/wrong N12, dann schreiben, was daran falsch ist)",
    outdated: "eine Erinnerung ist veraltet (/outdated N12)",
    forget: "überall vergessen (/forget <Wörter>, mit „ja“ bestätigen) oder eine Notiz (/forget 12)",
    retry: "die letzte Nachricht noch einmal beantworten",
    diary: "jetzt Tagebuch schreiben",
    think: "jetzt nachdenken",
    push: "Nachrichten von mir hierher: /push on, /push off, /push test",
    usage: "was die Modellaufrufe heute und diesen Monat kosten",
    budget: "ein aufgebrauchtes Budget für heute aufheben",
    voice: "mit Stimme antworten (eine Audiodatei): /voice on, /voice off",
    quit: "beenden",
  },
  logTo: (path) => `(Protokoll: ${path})`,
  unknownCommand: (word) => `Den Befehl /${word} kenne ich nicht. /help zeigt, was geht.`,
  nothingToRetry: "Nichts zu wiederholen: deine letzte Nachricht ist beantwortet.",
  chatModel: (spec, switched) => `${switched ? "Chat-Modell ist jetzt" : "Chat-Modell"}: ${spec}`,
  notesUsedTitle: "Notizen in meiner letzten Antwort:",
  notesUsedNone: "In meiner letzten Antwort habe ich keine Notizen benutzt.",
  newestTitle: "Neueste Notizen:",
  newestNone: "Noch keine Notizen.",
  forgetUsage: "So geht's: /forget <Nummer> (die Nummern zeigt /memory) oder /forget <Wörter> (überall vergessen).",
  forgotten: (text) => `🗑 Vergessen: „${text}“`,
  noSuchNote: "Diese Notiz gibt es nicht.",
  pushOn: "Okay, meine Nachrichten kommen ab jetzt hier ins Terminal, solange es offen ist.",
  pushOff: "Okay, ich schicke dir nichts mehr von mir aus.",
  pushStatus: (on) => (on ? "Push ist hier an. /push off schaltet ab, /push test schickt eine Probe." : "Push ist hier aus. /push on schaltet ihn ein."),
  pushTestText: "🔔 Testnachricht: So sieht es aus, wenn ich mich von mir aus melde.",
  pushUsage: "So geht's: /push, /push on, /push off oder /push test.",
};

const en: TerminalTexts = {
  listening: (name) => `${name} is listening.`,
  helpTitle: "Commands:",
  commands: {
    help: "this list",
    model: "show or switch the chat model (/model provider:model)",
    memory: "notes used in my last answer and the newest notes",
    why: "which memories my last answer had",
    wrong: "a memory is wrong (/wrong N12, then say what is wrong about it)",
    outdated: "a memory is out of date (/outdated N12)",
    forget: 'forget everywhere (/forget <words>, confirm with "yes") or one note (/forget 12)',
    retry: "answer the last message again",
    diary: "write the diary now",
    think: "think now",
    push: "messages from me to here: /push on, /push off, /push test",
    usage: "what the model calls cost today and this month",
    budget: "lift a spent budget for today",
    voice: "answer with my voice (an audio file): /voice on, /voice off",
    quit: "leave",
  },
  logTo: (path) => `(log: ${path})`,
  unknownCommand: (word) => `I don't know /${word}. /help lists what I can do.`,
  nothingToRetry: "Nothing to retry: your last message was answered.",
  chatModel: (spec, switched) => `${switched ? "Chat model is now" : "Chat model"}: ${spec}`,
  notesUsedTitle: "Notes in my last answer:",
  notesUsedNone: "My last answer used no notes.",
  newestTitle: "Newest notes:",
  newestNone: "No notes yet.",
  forgetUsage: "Usage: /forget <number> (/memory shows the numbers) or /forget <words> (forget everywhere).",
  forgotten: (text) => `🗑 Forgotten: "${text}"`,
  noSuchNote: "There is no such note.",
  pushOn: "Okay, my messages come to this terminal from now on, while it is open.",
  pushOff: "Okay, I won't send you anything on my own any more.",
  pushStatus: (on) => (on ? "Push is on here. /push off turns it off, /push test sends a sample." : "Push is off here. /push on turns it on."),
  pushTestText: "🔔 Test message: this is how it looks when I write on my own.",
  pushUsage: "Usage: /push, /push on, /push off or /push test.",
};

/** The texts for a persona language. */
export const TERMINAL_TEXTS = { de, en } as const;
export const terminalTexts = (language: "de" | "en"): TerminalTexts => TERMINAL_TEXTS[language];
