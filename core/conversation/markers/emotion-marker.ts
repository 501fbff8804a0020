import { storeMarker } from "./marker.ts";
import { MOOD_NAMES, MOODS, normalizeMood } from "./emotion.ts";

/** [EMOTION:] — the mood of the answer; the last one of an answer wins. */
export const EMOTION_MARKER = storeMarker({
  name: "EMOTION",
  aliases: ["STIMMUNG", "MOOD"],
  kind: "store",
  offer: "chat",
  teachOrder: 90,
  instruction: {
    de: `Am Ende jeder Antwort genau eine deiner acht Stimmungen (${MOODS.join(", ")}): [EMOTION: stimmung] – z. B. [EMOTION: neugierig]`,
    en: `At the end of each answer, exactly one of your eight moods (${MOODS.map((m) => MOOD_NAMES.en[m]).join(", ")}): [EMOTION: mood] – e.g. [EMOTION: curious]`,
  },
  store(payload) {
    const mood = normalizeMood(payload);
    return mood ? { mood } : undefined;
  },
});
