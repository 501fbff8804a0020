/** How far into the file the Opus identification header may start (the first Ogg page holds it). */
const HEAD_WINDOW = 128;

/** Opus granule positions count samples at 48 kHz, whatever the input rate was. */
const OPUS_RATE = 48_000;

/**
 * Is this audio Opus in an Ogg container, as Telegram's sendVoice and
 * Matrix voice messages need? The file starts with an Ogg page ("OggS")
 * whose packet is the Opus identification header ("OpusHead").
 */
export function isOggOpus(data: Uint8Array): boolean {
  const head = Buffer.from(data.subarray(0, HEAD_WINDOW)).toString("latin1");
  return head.startsWith("OggS") && head.includes("OpusHead");
}

/**
 * The length of an OGG/Opus file in milliseconds, from the granule position
 * of its last page less the header's pre-skip (RFC 7845); undefined when
 * the file does not say.
 */
export function oggOpusDurationMs(data: Uint8Array): number | undefined {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const head = buf.indexOf("OpusHead");
  const last = buf.lastIndexOf("OggS");
  if (head < 0 || last < 0 || last + 14 > buf.length || head + 12 > buf.length) return undefined;
  const granule = buf.readBigInt64LE(last + 6);
  const preSkip = buf.readUInt16LE(head + 10);
  const samples = Number(granule) - preSkip;
  return samples > 0 ? Math.round((samples * 1000) / OPUS_RATE) : undefined;
}
