/** What Lilo tells her Matrix users about her encryption device (German and English like the persona). */
export const CRYPTO_TEXTS = {
  de: {
    undecryptable:
      "🔐 Eine verschlüsselte Nachricht von dir konnte ich nicht lesen: ihr Schlüssel ist nie bei mir angekommen. Schreib sie mir bitte noch einmal.",
    newDevice: (deviceId: string, fingerprint: string) =>
      `🔐 Ich habe ein neues Gerät für verschlüsselte Nachrichten: **${deviceId}** (Fingerabdruck \`${fingerprint}\`). Ältere verschlüsselte Nachrichten kann ich damit nicht lesen.`,
    lostStore: (deviceId: string) =>
      `🔐 Meine Schlüssel für verschlüsselte Nachrichten sind verloren gegangen (Gerät ${deviceId}). Verschlüsselte Nachrichten kann ich erst wieder lesen, wenn ich ein neues Gerät habe: bitte für mich neu anmelden (neuer MATRIX_ACCESS_TOKEN) und mich neu starten.`,
  },
  en: {
    undecryptable: "🔐 I could not read an encrypted message of yours: its key never reached me. Please send it again.",
    newDevice: (deviceId: string, fingerprint: string) =>
      `🔐 I have a new device for encrypted messages: **${deviceId}** (fingerprint \`${fingerprint}\`). Older encrypted messages cannot be read with it.`,
    lostStore: (deviceId: string) =>
      `🔐 My keys for encrypted messages were lost (device ${deviceId}). I can read encrypted messages again once I have a new device: please log me in again (a new MATRIX_ACCESS_TOKEN) and restart me.`,
  },
} as const;
