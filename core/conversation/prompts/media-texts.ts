/**
 * What the chat turn says about photos a chat model cannot see, in the
 * persona's language. The adapters' own replies about media (voice notes,
 * stickers, files) live in adapters/shared/media-texts.ts.
 */
export const MEDIA_TEXTS = {
  de: {
    /** Added to the answer when the chat model cannot take images. */
    cannotSee: "(Bilder kann ich leider noch nicht sehen – ich habe nur deinen Text dazu gelesen.)",
    /** A line on the cheat sheet for a model that does not get the picture. */
    unseenPhotoHint: "Der Nutzer hat ein Foto geschickt, das du nicht sehen kannst; du hast nur den Text dazu. Er weiß das schon.",
  },
  en: {
    cannotSee: "(I can't see pictures yet – I only read your text with it.)",
    unseenPhotoHint: "The user sent a photo you cannot see; you only have its caption. They already know.",
  },
} as const;
