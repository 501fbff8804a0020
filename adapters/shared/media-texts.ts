/**
 * What the adapters say and store about media (photos, voice notes,
 * stickers, files), in the persona's language. Only the caption or transcript
 * of a message reaches the model; everything else gets one of these short
 * replies. (What the turn adds for a model that cannot see a photo is the
 * core's: core/conversation/prompts/media-texts.ts.)
 */
export const MEDIA_TEXTS = {
  de: {
    /** Stored (and shown in the history) in place of the picture itself. */
    photoNote: "[Foto]",
    /** Stored on arrival in place of a voice note until its transcript replaces it (and kept when there is none). */
    voiceNote: "[Sprachnachricht]",
    noTranscriber: "Sprachnachrichten kann ich leider noch nicht anhören. Schreib mir gern, was du sagen wolltest.",
    transcriptionFailed: "Deine Sprachnachricht konnte ich gerade nicht verstehen. Magst du es noch einmal versuchen oder es mir schreiben?",
    emptyTranscript: "In deiner Sprachnachricht habe ich nichts gehört. Magst du es noch einmal versuchen?",
    tooLarge: "Die Datei ist mir leider zu groß.",
    photoFailed: "Dein Foto konnte ich gerade nicht laden. Schreib mir gern, was darauf zu sehen ist.",
    sticker: (emoji: string | undefined) => `${emoji ? `${emoji} ` : ""}Sticker kann ich mir noch nicht ansehen – schreib mir gern, was du meinst.`,
    unsupported: (kind: string) => `${KIND_DE[kind] ?? "Solche Nachrichten"} kann ich noch nicht öffnen. Schreib mir gern, worum es geht.`,
  },
  en: {
    photoNote: "[Photo]",
    voiceNote: "[Voice note]",
    noTranscriber: "I can't listen to voice messages yet. Feel free to write what you wanted to say.",
    transcriptionFailed: "I couldn't make out your voice message just now. Try again, or write it to me?",
    emptyTranscript: "I heard nothing in your voice message. Try again?",
    tooLarge: "That file is too large for me, sorry.",
    photoFailed: "I couldn't load your photo just now. Feel free to tell me what's on it.",
    sticker: (emoji: string | undefined) => `${emoji ? `${emoji} ` : ""}I can't look at stickers yet – just write what you mean.`,
    unsupported: (kind: string) => `I can't open ${KIND_EN[kind] ?? "messages like this"} yet. Just tell me what it's about.`,
  },
} as const;

/** Message kinds the adapters name (Telegram and Matrix alike). */
const KIND_DE: Record<string, string> = {
  document: "Dateien",
  video: "Videos",
  video_note: "Videonachrichten",
  animation: "GIFs",
  location: "Standorte",
  venue: "Orte",
  contact: "Kontakte",
  poll: "Umfragen",
  audio: "Audiodateien",
};

const KIND_EN: Record<string, string> = {
  document: "files",
  video: "videos",
  video_note: "video messages",
  animation: "GIFs",
  location: "locations",
  venue: "places",
  contact: "contacts",
  poll: "polls",
  audio: "audio files",
};

/** The text stored for a photo: the note, then the caption (if any). */
export function photoMessageText(language: keyof typeof MEDIA_TEXTS, caption: string | undefined): string {
  const note = MEDIA_TEXTS[language].photoNote;
  return caption?.trim() ? `${note} ${caption.trim()}` : note;
}

/** What stands between the voice note's label and its platform reference in a stored placeholder. */
const MEDIA_REF = " (media:";

/**
 * The text stored for a voice note when it arrives, before it is
 * transcribed: the label and the platform's reference to the audio (a
 * Telegram file id, a Matrix `mxc://` URL), so a restart can fetch and
 * transcribe it again. The transcript replaces it before the turn runs.
 */
export function voicePlaceholder(language: keyof typeof MEDIA_TEXTS, ref: string): string {
  return `${MEDIA_TEXTS[language].voiceNote}${MEDIA_REF}${ref})`;
}

/** The platform reference in a stored voice-note placeholder; undefined for any other text. */
export function voiceRef(text: string): string | undefined {
  for (const t of Object.values(MEDIA_TEXTS)) {
    const start = `${t.voiceNote}${MEDIA_REF}`;
    if (text.startsWith(start) && text.endsWith(")") && text.length > start.length + 1) return text.slice(start.length, -1);
  }
  return undefined;
}
