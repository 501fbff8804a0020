/** How far into the file the Opus identification header may start (the first Ogg page holds it). */
const HEAD_WINDOW = 128;

/**
 * Is this audio Opus in an Ogg container, as Telegram's sendVoice and
 * Matrix voice messages need? The file starts with an Ogg page ("OggS")
 * whose packet is the Opus identification header ("OpusHead").
 */
export function isOggOpus(data: Uint8Array): boolean {
  const head = Buffer.from(data.subarray(0, HEAD_WINDOW)).toString("latin1");
  return head.startsWith("OggS") && head.includes("OpusHead");
}
