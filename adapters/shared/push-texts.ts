import type { PushOutcome } from "../../core/internal.ts";

/**
 * Why a test push did not arrive, in the persona's language: the push log's
 * status words ("not-opted-in") are for the admin, not for the chat.
 */
export const NOT_DELIVERED: Record<"de" | "en", Record<Exclude<PushOutcome, "sent">, string>> = {
  de: {
    failed: "Der Test-Push ist nicht angekommen: die Plattform hat ihn abgelehnt. Details stehen in `lilo push log`.",
    "not-opted-in": "Der Test-Push ging nicht raus: Push ist hier noch aus. Schalte ihn erst ein.",
    "quiet-hours": "Der Test-Push ging nicht raus: gerade ist Ruhezeit.",
    "no-transport": "Der Test-Push ging nicht raus: der Chat, für den Push eingeschaltet ist, ist gerade nicht verbunden.",
    queued: "Der Test-Push wartet darauf, dass Lilo mit dem Chat verbunden ist, für den Push eingeschaltet ist.",
  },
  en: {
    failed: "The test push did not arrive: the platform refused it. Details are in `lilo push log`.",
    "not-opted-in": "The test push did not go out: push is still off here. Turn it on first.",
    "quiet-hours": "The test push did not go out: it is quiet hours.",
    "no-transport": "The test push did not go out: the chat push is turned on for is not connected right now.",
    queued: "The test push waits until Lilo is connected to the chat push is turned on for.",
  },
};

/** The chat's answer to a test push that was not delivered. */
export function pushNotDelivered(language: "de" | "en", outcome: Exclude<PushOutcome, "sent">): string {
  return NOT_DELIVERED[language][outcome];
}
