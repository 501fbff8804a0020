/** What the history import page says, in the persona's language; beside the page, with the same keys in both. */
const en = {
  title: "Bring your history",
  intro:
    "Upload a chat export (WhatsApp .txt or .zip, Telegram result.json, ChatGPT or Claude conversations.json). Lilo shows what she found before anything is written.",
  file: "Export file",
  me: "You are (the speaker)",
  preview: "Preview…",
  previewTitle: "What this export holds",
  format: "Format",
  chats: "Chats",
  messages: "Messages",
  range: "From … to",
  newMessages: "New to the chat log",
  skipped: "Left out (system lines, media, deleted)",
  speakers: "Speakers",
  becomes: { me: "you", other: "another person: about them, never your own facts", assistant: "an assistant: its answers, never Lilo's" } as Record<
    string,
    string
  >,
  whoAreYou: "Which speaker are you? Choose and preview again.",
  cost: (calls: number, tokens: number, price: string) =>
    `Memories from it, in the background: ${calls} extraction calls, about ${tokens} tokens; estimated cost ${price}.`,
  noPrice: "unknown (no price for the model)",
  noModel: "none (no extraction model configured)",
  confirm: "Import now",
  again: "Preview again",
  nothingNew: "Nothing new: the chat log holds every message of this export already.",
  expired: "That preview is gone (too old, or Lilo restarted). Upload the file again.",
  imported: (id: number, added: number) => `Import ${id}: ${added} messages added to the chat log. Her memories of it follow in the background.`,
  count: (n: number) => `${n} messages`,
  imports: "Imports",
  none: "Nothing imported yet.",
  undone: "undone",
  extracting: (done: number, total: number) => `memories: ${done} of ${total} messages read`,
  paused: (why: string) => `paused: ${why}`,
};

/** The same in German. */
const de: typeof en = {
  title: "Deine Geschichte mitbringen",
  intro:
    "Lade einen Chat-Export hoch (WhatsApp .txt oder .zip, Telegram result.json, ChatGPT oder Claude conversations.json). Lilo zeigt, was sie gefunden hat, bevor etwas geschrieben wird.",
  file: "Export-Datei",
  me: "Du bist (Sprecher)",
  preview: "Vorschau…",
  previewTitle: "Was dieser Export enthält",
  format: "Format",
  chats: "Chats",
  messages: "Nachrichten",
  range: "Von … bis",
  newMessages: "Neu im Chatverlauf",
  skipped: "Ausgelassen (Systemzeilen, Medien, gelöscht)",
  speakers: "Sprecher",
  becomes: { me: "du", other: "eine andere Person: über sie, nie deine eigenen Fakten", assistant: "ein Assistent: seine Antworten, nie Lilos" },
  whoAreYou: "Welcher Sprecher bist du? Wähle aus und sieh dir die Vorschau noch einmal an.",
  cost: (calls, tokens, price) => `Erinnerungen daraus, im Hintergrund: ${calls} Extraktionsaufrufe, etwa ${tokens} Tokens; geschätzte Kosten ${price}.`,
  noPrice: "unbekannt (kein Preis für das Modell)",
  noModel: "keine (kein Extraktionsmodell eingerichtet)",
  confirm: "Jetzt importieren",
  again: "Vorschau erneuern",
  nothingNew: "Nichts Neues: Der Chatverlauf enthält schon jede Nachricht dieses Exports.",
  expired: "Diese Vorschau gibt es nicht mehr (zu alt, oder Lilo wurde neu gestartet). Lade die Datei noch einmal hoch.",
  imported: (id, added) => `Import ${id}: ${added} Nachrichten in den Chatverlauf übernommen. Die Erinnerungen daraus folgen im Hintergrund.`,
  count: (n) => `${n} Nachrichten`,
  imports: "Importe",
  none: "Noch nichts importiert.",
  undone: "rückgängig gemacht",
  extracting: (done, total) => `Erinnerungen: ${done} von ${total} Nachrichten gelesen`,
  paused: (why) => `pausiert: ${why}`,
};

/** The page's texts in one language. */
export type HistoryTexts = typeof en;
export const HISTORY_TEXTS: Record<"de" | "en", HistoryTexts> = { de, en };
